/**
 * The `cfb` package as the fallback reader of OLE2 compound files: it reads what the small lazy reader
 * (`ole.ts`) gives up on, at the cost of copying every stream first. Callers check the directory with
 * `ole2DirectoryProblem` where a cyclic directory could reach `cfb`, and word their own errors.
 */
import { createRequire } from 'node:module';
import type * as CfbModule from 'cfb';

export type CfbContainer = CfbModule.CFB$Container;

let cfb: typeof CfbModule | undefined;
/** `cfb`, loaded when a compound file first needs it: detection of every other kind (a PDF) never does. */
function CFB(): typeof CfbModule {
  return (cfb ??= createRequire(import.meta.url)('cfb') as typeof CfbModule);
}

/** Reads the whole compound file; throws `cfb`'s own error when it cannot. */
export function readCfb(bytes: Uint8Array): CfbContainer {
  return CFB().read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { type: 'buffer' });
}

/** The content of the stream at `name` (a path or a bare name, as `CFB.find` takes it). */
export function cfbStream(container: CfbContainer, name: string): Uint8Array | undefined {
  const entry = CFB().find(container, name);
  const content = entry?.content as Uint8Array | number[] | undefined;
  if (!content) return undefined;
  return content instanceof Uint8Array ? content : Uint8Array.from(content);
}

/** Names of the entries directly below the root storage. */
export function cfbRootNames(container: CfbContainer): string[] {
  return container.FullPaths.map((p) => p.replace(/^[^/]*\//, '')).filter((p) => p && !p.slice(0, -1).includes('/'));
}
