/**
 * Preloaded into every node test process (`--import` in scripts/test-node.sh): in-memory PGlite
 * starts load one initialised empty cluster instead of running initdb, which took 3–4 s of CPU in
 * each of about ninety test files. The cluster is made once per PGlite version and settings, kept
 * in node_modules/.cache (pglite-cache.ts; written to a scratch name, then renamed: test files
 * starting together never read half a file), and reused by every later run.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { emptyClusterTarball, useMemoryTemplate } from '../../server/src/store/pglite-engine.js';
import { pgliteCachePath } from './pglite-cache.js';

const file = pgliteCachePath('tar');

let template: Promise<Blob> | undefined;
useMemoryTemplate(() => {
  template ??= loadOrMake();
  return template;
});

async function loadOrMake(): Promise<Blob> {
  try {
    return new Blob([await readFile(file)]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const made = await emptyClusterTarball();
  await mkdir(dirname(file), { recursive: true });
  const scratch = `${file}.${process.pid}`;
  await writeFile(scratch, new Uint8Array(await made.arrayBuffer()));
  await rename(scratch, file);
  return made;
}
