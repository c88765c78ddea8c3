/**
 * DATA_DIR holds the embedded database (customers' e-mails, orders, live widget sessions), the
 * dev secrets and the sandbox's keys: the owner's alone. A folder others may write is refused
 * (anyone could have changed the database or planted a key); what others may only read is
 * tightened, on every start: folders 0700, files 0600. PostgreSQL refuses a data folder that is
 * not 0700 for the same reason. Files the database creates later get modes of its own (PGlite
 * sets them); behind folders of 0700 no other user reaches them, and the next start tightens them.
 * A symbolic link (DATA_DIR itself, as `/var/lib/app -> /mnt/volume/app`, or one inside it) is
 * judged by what it points to: a link is only a name, and the folder behind it is where the data is.
 */
import { chmod, lstat, mkdir, readdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError } from './config.js';

/** Writable by the group or by anyone. */
const OTHERS_WRITE = 0o022;

/** Creates DATA_DIR (0700) or checks and tightens it; a ConfigError naming it when others can write it. */
export async function secureDataDir(dataDir: string): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const writable = await othersMayWrite(dataDir, new Set());
  if (writable) {
    const shown =
      writable.path === writable.real ? writable.path : `${writable.path} (${writable.real})`;
    throw new ConfigError(
      'DATA_DIR',
      `${shown} is writable by other users (mode ${modeText(await lstat(writable.real))}): anyone could have changed its data. Check it, then chmod -R go-rwx it`,
    );
  }
  await tighten(dataDir, new Set());
}

function modeText(stats: { mode: number }): string {
  return (stats.mode & 0o777).toString(8).padStart(4, '0');
}

/**
 * The first folder under (and including) `path` that the group or others may write to, by the
 * name it was found under and the real path behind any link. `seen` (real paths) stops link loops.
 */
async function othersMayWrite(
  path: string,
  seen: Set<string>,
): Promise<{ path: string; real: string } | undefined> {
  const real = await realpath(path).catch(() => undefined); // a dangling link holds nothing
  if (real === undefined || seen.has(real)) return undefined;
  seen.add(real);
  const stats = await lstat(real);
  if (!stats.isDirectory()) return undefined;
  if (stats.mode & OTHERS_WRITE) return { path, real };
  for (const entry of await readdir(real)) {
    const found = await othersMayWrite(join(path, entry), seen);
    if (found) return found;
  }
  return undefined;
}

/** Folders 0700, files 0600, behind links too; `seen` (real paths) stops link loops. */
async function tighten(path: string, seen: Set<string>): Promise<void> {
  const real = await realpath(path).catch(() => undefined);
  if (real === undefined || seen.has(real)) return;
  seen.add(real);
  const stats = await lstat(real);
  if (stats.isDirectory()) {
    if ((stats.mode & 0o777) !== 0o700) await chmod(real, 0o700);
    // A folder's entries at once: a data folder holds about a thousand files (PGlite's).
    await Promise.all((await readdir(real)).map((entry) => tighten(join(real, entry), seen)));
  } else if ((stats.mode & 0o777) !== 0o600) {
    await chmod(real, 0o600);
  }
}
