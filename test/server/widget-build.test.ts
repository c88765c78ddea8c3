import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { widgetBuildIsStale } from '../../server/src/widget-build.js';

test('the widget build is stale when missing or older than a source, fresh otherwise', () => {
  const root = mkdtempSync(join(tmpdir(), 'widget-build-'));
  try {
    mkdirSync(join(root, 'widget/src/card'), { recursive: true });
    const source = join(root, 'widget/src/card/format.ts');
    writeFileSync(source, 'export {};');
    assert.equal(widgetBuildIsStale(root), true, 'no bundle yet');

    mkdirSync(join(root, 'dist/cdn'), { recursive: true });
    const bundle = join(root, 'dist/cdn/pay-checkout.js');
    writeFileSync(bundle, '//');
    utimesSync(source, new Date(1_000_000), new Date(1_000_000));
    utimesSync(bundle, new Date(2_000_000), new Date(2_000_000));
    assert.equal(widgetBuildIsStale(root), false, 'bundle newer than every source');

    const config = join(root, 'vite.config.ts');
    writeFileSync(config, 'export default {};');
    utimesSync(config, new Date(1_500_000), new Date(1_500_000));
    assert.equal(widgetBuildIsStale(root), false, 'bundle newer than the build config');

    utimesSync(config, new Date(2_500_000), new Date(2_500_000));
    assert.equal(widgetBuildIsStale(root), true, 'the build config changed after the build');

    utimesSync(config, new Date(1_500_000), new Date(1_500_000));
    utimesSync(source, new Date(3_000_000), new Date(3_000_000));
    assert.equal(widgetBuildIsStale(root), true, 'a source changed after the build');

    utimesSync(source, new Date(1_000_000), new Date(1_000_000));
    mkdirSync(join(root, 'contract/card'), { recursive: true });
    const shared = join(root, 'contract/card/luhn.ts');
    writeFileSync(shared, 'export {};');
    utimesSync(shared, new Date(1_000_000), new Date(1_000_000));
    assert.equal(widgetBuildIsStale(root), false, 'bundle newer than every contract source');
    utimesSync(shared, new Date(3_000_000), new Date(3_000_000));
    assert.equal(widgetBuildIsStale(root), true, 'a contract source changed after the build');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
