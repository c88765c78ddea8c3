import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { packageRoot, widgetFolder } from '../../server/src/package-root.js';

const tmp = mkdtempSync(join(tmpdir(), 'package-root-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

test('from the sources: the repository, and its dist/cdn', () => {
  const repository = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');
  assert.equal(packageRoot(), repository);
  assert.equal(widgetFolder(), join(repository, 'dist', 'cdn'));
});

test('compiled inside an installed package: that package, not the folder above it', () => {
  const installed = join(tmp, 'shop', 'node_modules', 'pay-checkout');
  const file = join(installed, 'dist', 'node', 'server', 'src', 'package-root.js');
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(join(tmp, 'shop', 'package.json'), '{"name":"shop"}');
  writeFileSync(join(installed, 'package.json'), '{"name":"pay-checkout"}');
  assert.equal(packageRoot(file), installed);
  assert.throws(
    () => packageRoot(join(tmp, 'shop', 'x.js')),
    /no pay-checkout package\.json above/,
  );
});
