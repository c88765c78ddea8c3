import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { hashFolder, languageFiles, sri } from '../../scripts/language-data.mjs';
import de from '../../widget/src/i18n/locales/de.js';

const tmp = mkdtempSync(join(tmpdir(), 'language-data-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

test('sri: sha384 in base64, as a browser checks `integrity`', () => {
  // The SHA-384 of nothing (FIPS 180-4's known answer), base64.
  assert.equal(sri(''), 'sha384-OLBgp1GsljhM2TJ+sbHjaiH9txEUvgdDTAzHv2P24donTt6/529l+9Ua0vFImLlb');
  assert.equal(sri(Buffer.from('abc')), sri('abc'));
});

test('each language module becomes the JSON of its default export', async () => {
  const files = await languageFiles(join(import.meta.dirname, '../../widget/src/i18n/locales'));
  assert.ok(Object.keys(files).length >= 15);
  assert.deepEqual(JSON.parse(files.de as string), de);
});

test('a language that JSON would change stops the build, naming its file', async () => {
  const dir = join(tmp, 'locales');
  mkdirSync(dir);
  writeFileSync(join(dir, 'xx.ts'), 'export default { pay: "Pay", plural: () => "many" };\n');
  await assert.rejects(languageFiles(dir), /xx\.ts: its default export is not plain JSON data/);
});

test('hashFolder: every file under the folder by its relative path, sorted', () => {
  const dir = join(tmp, 'cdn');
  mkdirSync(join(dir, 'locales'), { recursive: true });
  writeFileSync(join(dir, 'pay-checkout.js'), 'abc');
  writeFileSync(join(dir, 'locales', 'de.json'), '');
  assert.deepEqual(hashFolder(dir), {
    'locales/de.json': sri(''),
    'pay-checkout.js': sri('abc'),
  });
});
