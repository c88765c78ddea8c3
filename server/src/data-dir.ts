/**
 * DATA_DIR holds the embedded database (customers' e-mails, orders, live widget sessions), the
 * dev secrets and the sandbox's keys: the owner's alone. A folder others may write is refused
 * (anyone could have changed the database or planted a key); what others may only read is
 * tightened, on every start: folders 0700, files 0600. PostgreSQL refuses a data folder that is
 * not 0700 for the same reason. Files the database creates later get modes of its own (PGlite
 * sets them); behind folders of 0700 no other user reaches them, and the next start tightens them.
 */
import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError } from './config.js';

/** Writable by the group or by anyone. */
const OTHERS_WRITE = 0o022;

/** Creates DATA_DIR (0700) or checks and tightens it; a ConfigError naming it when others can write it. */
export async function secureDataDir(dataDir: string): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const writable = await othersMayWrite(dataDir);
  if (writable) {
    throw new ConfigError(
      'DATA_DIR',
      `${writable} is writable by other users (mode ${modeText(await lstat(writable))}): anyone could have changed its data. Check it, then chmod -R go-rwx it`,
    );
  }
  await tighten(dataDir);
}

function modeText(stats: { mode: number }): string {
  return (stats.mode & 0o777).toString(8).padStart(4, '0');
}

/** The first folder under (and including) `dir` that the group or others may write to. */
async function othersMayWrite(dir: string): Promise<string | undefined> {
  const stats = await lstat(dir);
  if (!stats.isDirectory()) return undefined;
  if (stats.mode & OTHERS_WRITE) return dir;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const found = await othersMayWrite(join(dir, entry.name));
    if (found) return found;
  }
  return undefined;
}

/** Folders 0700, files 0600; symbolic links are left alone (chmod would follow them). */
async function tighten(path: string): Promise<void> {
  const stats = await lstat(path);
  if (stats.isSymbolicLink()) return;
  if (stats.isDirectory()) {
    if ((stats.mode & 0o777) !== 0o700) await chmod(path, 0o700);
    // A folder's entries at once: a data folder holds about a thousand files (PGlite's).
    await Promise.all((await readdir(path)).map((entry) => tighten(join(path, entry))));
  } else if ((stats.mode & 0o777) !== 0o600) {
    await chmod(path, 0o600);
  }
}
