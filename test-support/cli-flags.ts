/**
 * The node flags the docmill command runs PDF work under (src/cli/node-flags.ts), for benchmarks that
 * start docmill as the command starts itself.
 */
import { CLI_NODE_FLAGS } from '../src/cli/node-flags.js';

export function cliNodeFlags(): string[] {
  return [...CLI_NODE_FLAGS];
}
