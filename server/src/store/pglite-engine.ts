/**
 * Starts the embedded engine, PGlite (PostgreSQL compiled to WebAssembly), on a data folder or
 * in memory, with the settings measured in docs/pglite-options.md:
 * - `shared_buffers` 16MB instead of initdb's 128MB: Postgres touches its whole buffer pool at
 *   start, so that is about 110 MB less resident memory per instance, and our tables are small.
 * - A new data folder is first initialised in a child process (pglite-folder.ts).
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

/** Opens PGlite in `dataDir` (a new folder is initialised first), or in memory without one. */
export async function startPGlite(dataDir: string | undefined): Promise<PGlite> {
  if (dataDir) await initialiseDataDir(dataDir);
  const pg = new PGlite({ dataDir, startParams: pgliteStartParams(PGLITE_SETTINGS) });
  await pg.waitReady;
  return pg;
}
