/**
 * Where the test runs keep what PGlite made once and every later run reuses: a file or folder in
 * node_modules/.cache/pay-checkout, named by PGlite's version and our start parameters, so that
 * an upgrade or a new setting makes a new one instead of reusing a stale one.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGLITE_SETTINGS, pgliteStartParams } from '../../server/src/store/engine/pglite-engine.js';
import { initialiseDataDir } from '../../server/src/store/engine/pglite-folder.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pglite = join(root, 'node_modules', '@electric-sql', 'pglite');
const { version } = JSON.parse(readFileSync(join(pglite, 'package.json'), 'utf8')) as {
  version: string;
};
const params = createHash('sha256')
  .update(JSON.stringify(pgliteStartParams(PGLITE_SETTINGS)))
  .digest('hex')
  .slice(0, 12);

/** What the in-memory template holds; bump it when emptyClusterTarball changes what it keeps. */
const TEMPLATE_CONTENTS = 'postgres-only';

/** The cache path of `kind` (`tar`: an in-memory template; `folder`: an initialised data folder). */
export function pgliteCachePath(kind: 'tar' | 'folder'): string {
  const suffix = kind === 'tar' ? `-${TEMPLATE_CONTENTS}.tar` : '-folder';
  const name = `pglite-${version}-${params}${suffix}`;
  return join(root, 'node_modules', '.cache', 'pay-checkout', name);
}

/**
 * Makes `dataDir` a copy of a new, empty PGlite data folder, made once and kept: a test whose
 * subject is not the first start of a folder (a restart, a layout, the e2e stacks) starts as
 * `npm start` does on a folder it made earlier, instead of paying for initdb (seconds of CPU).
 * The first start of a folder is tested in test/server/store/pglite-engine.test.ts and
 * test/server/main.test.ts, and timed by the bench.
 */
export async function copyNewDataFolder(dataDir: string): Promise<void> {
  const folder = pgliteCachePath('folder');
  await initialiseDataDir(folder);
  await cp(folder, dataDir, { recursive: true });
}
