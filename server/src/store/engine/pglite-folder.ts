/**
 * The first start of a PGlite data folder, in a child process. PGlite runs initdb in a second WASM
 * Postgres inside the calling process, and V8 gives that memory back only at some later full
 * garbage collection: about 500 MB stayed resident after the first start of a folder. In a child
 * it goes away when the child exits; the caller then opens an existing folder.
 *
 * This module does not load PGlite itself (the child does), so that a caller may begin the
 * initialisation before it has loaded the rest of its code (main.ts does).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, rmdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { newDataFolder } from './pglite-template.js';

/**
 * V8 flags of the child. `--liftoff-only`: initdb is a few seconds of WASM run once, so code from
 * V8's optimising tier arrives too late to pay for compiling it (on two cores it competes with
 * initdb for the CPU); the baseline code alone finished about 20 % sooner (docs/pglite-options.md).
 * A Node without the flag refuses to start the child, and PGlite then initialises in-process.
 */
export const INIT_CHILD_FLAGS: readonly string[] = ['--liftoff-only'];

/** The script the child runs: PGlite initialises a folder it is given that holds no database. */
const INIT_SCRIPT = `
const [moduleUrl, dataDir] = process.argv.slice(1);
const { PGlite } = await import(moduleUrl);
const db = new PGlite(dataDir);
await db.waitReady;
await db.close();
`;

/** Initialisations under way, by resolved folder. */
const initialising = new Map<string, Promise<void>>();

function hasDatabase(dataDir: string): boolean {
  return existsSync(join(dataDir, 'PG_VERSION'));
}

/**
 * Makes `dataDir` hold a database. The child initialises a scratch folder beside it, which is then
 * renamed into place: an interrupted first start leaves no half-made database behind. A folder
 * that holds other files is left to PGlite as it is; so is any failure of the child (PGlite then
 * initialises in this process, as it always can, only with the memory cost above).
 */
export function initialiseDataDir(
  folder: string,
  childFlags: readonly string[] = INIT_CHILD_FLAGS,
): Promise<void> {
  // Resolved, so that a trailing slash cannot put the scratch folder inside the folder.
  const dataDir = resolve(folder);
  // A second call while the first runs (main.ts begins early, the store opens later) joins it.
  let pending = initialising.get(dataDir);
  if (!pending) {
    pending = initialise(dataDir, childFlags).finally(() => initialising.delete(dataDir));
    initialising.set(dataDir, pending);
  }
  return pending;
}

async function initialise(dataDir: string, childFlags: readonly string[]): Promise<void> {
  if (hasDatabase(dataDir)) return;
  const entries = await readdir(dataDir).catch(() => undefined);
  if (entries && entries.length > 0) return;
  const scratch = `${dataDir}.init-${randomBytes(6).toString('hex')}`;
  try {
    await mkdir(dirname(dataDir), { recursive: true });
    await newDataFolder(scratch, INIT_SCRIPT, (folder) => initialiseInChild(folder, childFlags));
    // The folder may exist, empty (made by the caller, now or meanwhile), and Windows cannot
    // rename onto a folder: remove it first (a folder that is not empty stays, and wins).
    await rmdir(dataDir).catch(() => {});
    await rename(scratch, dataDir);
  } catch {
    // Another process starting on the same folder may have won the rename: its database is fine.
    // Otherwise PGlite initialises the folder itself when it opens it.
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function initialiseInChild(dataDir: string, flags: readonly string[]): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(
      process.execPath,
      [
        ...flags,
        '--input-type=module',
        '-e',
        INIT_SCRIPT,
        import.meta.resolve('@electric-sql/pglite'),
        dataDir,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-2000);
    });
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0 && hasDatabase(dataDir)) resolvePromise();
      else reject(new Error(`PGlite initdb child exited with ${code}: ${stderr.trim()}`));
    });
  });
}
