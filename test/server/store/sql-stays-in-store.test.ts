/**
 * The backend runs SQL through the store's repositories only: no file of server/src outside
 * store/ calls `query`, names the engine's types, or reaches for the store's database. (The
 * sandbox, the gateway's emulator, keeps tables of its own on the engine directly.)
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SERVER_SRC = fileURLToPath(new URL('../../../server/src/', import.meta.url));
const OWN_SQL = ['store/', 'sandbox/'];
const RAW_SQL = /\.query(<[^>]*>)?\(|\bQueryable\b|\bQueryResult\b|\.db\.|\.readOnly\(/;

test('no SQL in server/src outside store/ (and the sandbox)', async () => {
  const entries = await readdir(SERVER_SRC, { recursive: true });
  const files = entries
    .filter((file) => file.endsWith('.ts'))
    .filter((file) => !OWN_SQL.some((folder) => file.split('\\').join('/').startsWith(folder)));
  assert.ok(files.length > 100, `${files.length} files`);
  const found: string[] = [];
  for (const file of files) {
    const lines = (await readFile(join(SERVER_SRC, file), 'utf8')).split('\n');
    lines.forEach((line, i) => {
      if (RAW_SQL.test(line))
        found.push(`${relative(SERVER_SRC, join(SERVER_SRC, file))}:${i + 1}`);
    });
  }
  assert.deepEqual(found, []);
});
