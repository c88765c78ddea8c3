/**
 * A new PGlite data folder as a copy of one initialised before, instead of a new initdb: initdb is
 * 3–5 s of CPU (the largest part of `npm start` on a new DATA_DIR, and of every `--fresh`); the
 * copy, about 40 MB in a thousand files, a few hundred milliseconds of I/O that runs beside the
 * loading of the app's code.
 *
 * The template is made by the first initialisation that finds none (initdb in a child, as
 * before) and kept in node_modules/.cache/pay-checkout, beside the PGlite whose initdb made it,
 * named by PGlite's version and what the child runs: an upgrade makes a new one. It is as
 * trusted as the code in that node_modules, which this process runs anyway, and it must be this
 * user's and writable by no one else (else initdb runs, as without one). Any failure of the
 * template (no cache folder, a read-only node_modules, a failed copy) falls back to initdb.
 *
 * Only `npm start` and the other commands of main.ts use templates (`useDataFolderTemplates`); a
 * program that embeds the store initialises its folders as before. Like pglite-folder.ts, this
 * module does not load PGlite.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { copyFile, lstat, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

let enabled = false;

/** From now on, new data folders of this process are copies of a template (main.ts). */
export function useDataFolderTemplates(on = true): void {
  enabled = on;
}

/** Writable by the group or by anyone. */
const OTHERS_WRITE = 0o022;

/** The template's folder for initdb `recipe`, or undefined when PGlite's node_modules is not found. */
export function templateFolder(recipe: string): string | undefined {
  try {
    const entry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
    const at = entry.lastIndexOf(`${sep}node_modules${sep}`);
    if (at < 0) return undefined;
    const nodeModules = entry.slice(0, at + `${sep}node_modules`.length);
    const pglite = join(nodeModules, '@electric-sql', 'pglite', 'package.json');
    const { version } = JSON.parse(readFileSync(pglite, 'utf8')) as { version: string };
    const key = createHash('sha256').update(recipe).digest('hex').slice(0, 12);
    return join(nodeModules, '.cache', 'pay-checkout', `pglite-${version}-${key}-new-data-folder`);
  } catch {
    return undefined;
  }
}

/**
 * Makes `folder` (which must not exist) a new data folder: a copy of the template when templates
 * are in use, made first by `initdb` when there is none; else `initdb(folder)` itself.
 */
export async function newDataFolder(
  folder: string,
  recipe: string,
  initdb: (folder: string) => Promise<void>,
): Promise<void> {
  const template = enabled ? templateFolder(recipe) : undefined;
  if (!template) return initdb(folder);
  try {
    if (!(await isOurs(template))) await makeTemplate(template, initdb);
    await copyTree(template, folder);
  } catch {
    await rm(folder, { recursive: true, force: true });
    await initdb(folder);
  }
}

/** The template exists, is a folder (not a link), is this user's and no one else may write it. */
async function isOurs(template: string): Promise<boolean> {
  const stats = await lstat(template).catch(() => undefined);
  if (!stats) return false;
  const uid = process.getuid?.();
  if (!stats.isDirectory() || (uid !== undefined && stats.uid !== uid) || stats.mode & OTHERS_WRITE)
    throw new Error(`${template} is not a folder only this user may change`);
  return true;
}

/** initdb into a scratch folder, renamed into place (a template is never seen half made). */
async function makeTemplate(
  template: string,
  initdb: (folder: string) => Promise<void>,
): Promise<void> {
  await mkdir(dirname(template), { recursive: true, mode: 0o700 });
  const scratch = `${template}.${randomBytes(6).toString('hex')}`;
  try {
    await initdb(scratch);
    await rename(scratch, template).catch(async (error: unknown) => {
      // Another start made it meanwhile: use theirs.
      if (!(await isOurs(template))) throw error;
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * Copies a folder tree, several files at a time (fs.cp copies one at a time: about 40 % slower
 * here). Links and other special files are refused: a data folder made by initdb has none.
 */
async function copyTree(from: string, to: string): Promise<void> {
  const files: string[] = [];
  const walk = async (path: string): Promise<void> => {
    await mkdir(join(to, path), { mode: 0o700 });
    const entries = await readdir(join(from, path), { withFileTypes: true });
    const folders: Promise<void>[] = [];
    for (const entry of entries) {
      const child = join(path, entry.name);
      if (entry.isDirectory()) folders.push(walk(child));
      else if (entry.isFile()) files.push(child);
      else throw new Error(`${join(from, child)} is not a file or a folder`);
    }
    await Promise.all(folders);
  };
  await walk('');
  let next = 0;
  const copier = async () => {
    while (next < files.length) {
      const file = files[next++] as string;
      await copyFile(join(from, file), join(to, file));
    }
  };
  await Promise.all(Array.from({ length: 8 }, copier));
}
