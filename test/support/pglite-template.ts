/**
 * Preloaded into every node test process (`--import` in scripts/test-node.sh): in-memory PGlite
 * starts load one initialised empty cluster instead of running initdb, which took 3–4 s of CPU in
 * each of about ninety test files. The cluster is made once per PGlite version and settings, kept
 * in node_modules/.cache (pglite-cache.ts; written to a scratch name, then renamed: test files
 * starting together never read half a file), and reused by every later run.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  emptyClusterTarball,
  useMemoryTemplate,
} from '../../server/src/store/engine/pglite-engine.js';
import { pgliteCachePath } from './pglite-cache.js';

const file = pgliteCachePath('tar');

let template: Promise<Uint8Array> | undefined;
useMemoryTemplate(async () => {
  template ??= loadOrMake();
  return new BytesBlob(await template);
});

/**
 * A Blob that hands PGlite its bytes at once: Node 20's own Blob.arrayBuffer() reads a 25 MB
 * blob through a stream in chunks and joins them, about 0.2 s of CPU per start. Each call gets
 * a copy, so no start can change what the next one loads.
 */
class BytesBlob extends Blob {
  readonly #bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    super();
    this.#bytes = bytes;
  }
  override get size(): number {
    return this.#bytes.byteLength;
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#bytes.slice().buffer);
  }
}

async function loadOrMake(): Promise<Uint8Array> {
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const made = new Uint8Array(await (await emptyClusterTarball()).arrayBuffer());
  await mkdir(dirname(file), { recursive: true });
  const scratch = `${file}.${process.pid}`;
  await writeFile(scratch, made);
  await rename(scratch, file);
  return made;
}
