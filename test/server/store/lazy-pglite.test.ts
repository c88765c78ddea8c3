/**
 * PGlite's code is loaded only when an embedded database is opened (store/engine/database.ts): a backend
 * on PostgreSQL, which imports the app and the store, never loads it. Checked in child processes
 * whose module loader reports every file it loads.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Registers a load hook that writes each loaded file's URL to stderr, one per line. */
const REPORT_LOADS = `data:text/javascript,${encodeURIComponent(`
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(
  'export async function load(url, context, next) { process.stderr.write("LOADED " + url + "\\\\n"); return next(url, context); }'
));`)}`;

/** The files `script` (an ES module run from the project root) loads. */
function filesLoadedBy(script: string): string[] {
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--import', REPORT_LOADS, '--input-type=module', '-e', script],
    { cwd: ROOT, encoding: 'utf8' },
  );
  assert.equal(child.status, 0, child.stderr);
  return child.stderr
    .split('\n')
    .filter((line) => line.startsWith('LOADED '))
    .map((line) => line.slice('LOADED '.length));
}

const isPGlite = (url: string) => url.includes('/@electric-sql/pglite/');

test('the app and the store load without PGlite', () => {
  const files = filesLoadedBy(`
    await import('./server/src/checkout/app.ts');
    await import('./server/src/store/index.ts');
    await import('./server/src/commands.ts');`);
  assert.ok(files.some((url) => url.endsWith('/server/src/store/engine/database.ts')));
  assert.deepEqual(files.filter(isPGlite), []);
});

test('opening an embedded database loads PGlite', () => {
  // A folder that cannot be made: PGlite is loaded, then the start fails at once (no initdb).
  const files = filesLoadedBy(`
    const { openDatabase } = await import('./server/src/store/index.ts');
    await openDatabase({ dataDir: '/dev/null/no-folder' }).then(
      () => { throw new Error('opened'); },
      () => {},
    );`);
  assert.ok(files.some(isPGlite));
});
