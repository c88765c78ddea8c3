/**
 * Starts the embedded engine, PGlite (PostgreSQL compiled to WebAssembly), on a data folder or
 * in memory, with the settings measured in docs/pglite-options.md:
 * - `shared_buffers` 16MB instead of initdb's 128MB: Postgres touches its whole buffer pool at
 *   start, so that is about 110 MB less resident memory per instance, and our tables are small.
 * - A new data folder is first initialised in a child process (pglite-folder.ts).
 * - In memory, initdb runs on every start (3–4 s of CPU). A process that starts many in-memory
 *   databases (a test run) can hand over an initialised empty cluster instead
 *   (`useMemoryTemplate`), which loads in about 0.4 s.
 */
import { PGlite } from '@electric-sql/pglite';
import { initialiseDataDir } from './pglite-folder.js';

/** Server settings added to PGlite's own start parameters (measured: docs/pglite-options.md). */
export const PGLITE_SETTINGS: Readonly<Record<string, string>> = { shared_buffers: '16MB' };

export function pgliteStartParams(settings: Readonly<Record<string, string>>): string[] {
  return [
    ...PGlite.defaultStartParams,
    ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
  ];
}

/** An initialised, empty cluster: the tarball `emptyClusterTarball` makes. */
export type MemoryTemplate = () => Promise<Blob>;

let memoryTemplate: MemoryTemplate | undefined;

/**
 * In-memory starts of this process load `template` instead of running initdb (none: initdb).
 * Answers the template it replaces.
 */
export function useMemoryTemplate(
  template: MemoryTemplate | undefined,
): MemoryTemplate | undefined {
  const previous = memoryTemplate;
  memoryTemplate = template;
  return previous;
}

/**
 * A fresh, empty in-memory cluster as an uncompressed tarball, for `useMemoryTemplate`. It holds
 * only the `postgres` database PGlite opens: the template databases are 15 of an empty cluster's
 * 40 MB, which every start would untar and copy, and only CREATE DATABASE reads them.
 */
export async function emptyClusterTarball(): Promise<Blob> {
  const pg = new PGlite({ startParams: pgliteStartParams(PGLITE_SETTINGS) });
  try {
    await pg.waitReady;
    // One statement per call: DROP DATABASE refuses to run inside exec's implicit transaction.
    for (const name of ['template0', 'template1']) {
      await pg.query(`ALTER DATABASE ${name} IS_TEMPLATE false`);
      await pg.query(`DROP DATABASE ${name}`);
    }
    await pg.query('CHECKPOINT');
    return await pg.dumpDataDir('none');
  } finally {
    await pg.close();
  }
}

/** Opens PGlite in `dataDir` (a new folder is initialised first), or in memory without one. */
export async function startPGlite(dataDir: string | undefined): Promise<PGlite> {
  if (dataDir) await initialiseDataDir(dataDir);
  const loadDataDir = !dataDir && memoryTemplate ? await memoryTemplate() : undefined;
  const pg = new PGlite({
    dataDir,
    startParams: pgliteStartParams(PGLITE_SETTINGS),
    ...(loadDataDir ? { loadDataDir } : {}),
  });
  await pg.waitReady;
  return pg;
}
