/** What every route of the service works with, built once by src/server/app.ts. */
import type { Parser } from '../parser.js';
import type { ServerConfig } from './config.js';
import type { KeyLimiter } from './limiter.js';
import type { MonitorService } from './monitors/service.js';
import type { Store } from './store/store.js';

export interface ServiceContext {
  config: ServerConfig;
  store: Store;
  parser: Parser;
  limiter: KeyLimiter;
  monitors: MonitorService;
}
