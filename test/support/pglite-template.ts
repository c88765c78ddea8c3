/**
 * Preloaded into every node test process (`--import` in scripts/test-node.sh): in-memory PGlite
 * starts load one initialised empty cluster instead of running initdb, which took 3–4 s of CPU in
 * each of about ninety test files. The cluster is made once per PGlite version and settings, kept
 * in node_modules/.cache (written to a scratch name, then renamed: test files starting together
 * never read half a file), and reused by every later run.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  emptyClusterTarball,
  PGLITE_SETTINGS,
  pgliteStartParams,
  useMemoryTemplate,
} from '../../server/src/store/pglite-engine.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pglite = join(root, 'node_modules', '@electric-sql', 'pglite');
const { version } = JSON.parse(readFileSync(join(pglite, 'package.json'), 'utf8')) as {
  version: string;
};
const params = createHash('sha256')
  .update(JSON.stringify(pgliteStartParams(PGLITE_SETTINGS)))
  .digest('hex')
  .slice(0, 12);
const file = join(
  root,
  'node_modules',
  '.cache',
  'pay-checkout',
  `pglite-${version}-${params}.tar`,
);

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
