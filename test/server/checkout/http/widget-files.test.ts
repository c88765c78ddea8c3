/**
 * The element's files as the backend serves them: pinned by version, immutable, CORS for a
 * `crossorigin` script, and never a byte integrity.json does not vouch for.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import express from 'express';
import request from 'supertest';
import { errorMiddleware } from '../../../../server/src/checkout/errors.js';
import {
  IMMUTABLE,
  SHORT_CACHE,
  widgetFilesRouter,
} from '../../../../server/src/checkout/http/widget-files.js';
import { createLogger } from '../../../../server/src/checkout/logger.js';
import { sri } from '../../../../server/src/sri.js';
import { type Sandbox, startBackend, startSandbox } from '../../../support/loopback-stack.js';

const SCRIPT = 'export const pay = 1;\n';
const GERMAN = '{"pay":"Bezahlen"}';

/** A CDN folder as the build writes it, integrity.json dated `at` (seconds). */
function build(
  dir: string,
  at: number,
  files = { 'pay-checkout.js': SCRIPT, 'locales/de.json': GERMAN },
) {
  mkdirSync(join(dir, 'locales'), { recursive: true });
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  const hashes = Object.fromEntries(Object.entries(files).map(([p, t]) => [p, sri(t)]));
  const manifest = join(dir, 'integrity.json');
  writeFileSync(manifest, JSON.stringify({ version: '1.4.2', files: hashes }));
  utimesSync(manifest, at, at);
}

describe('the widget files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'widget-files-'));
  const app = express()
    .use(widgetFilesRouter(dir))
    .use(errorMiddleware(createLogger({ level: 'silent' })));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('answers 503 naming the build while there is none', async () => {
    const res = await request(app).get('/v1.4.2/pay-checkout.js');
    assert.equal(res.status, 503);
    assert.match(res.body.error.message, /not built \(npm run build\)/);
  });

  it('serves the versioned file immutable, with CORS, as JavaScript', async () => {
    build(dir, 1000);
    const res = await request(app).get('/v1.4.2/pay-checkout.js');
    assert.equal(res.status, 200);
    assert.equal(res.text, SCRIPT);
    assert.equal(res.headers['cache-control'], IMMUTABLE);
    assert.equal(res.headers['access-control-allow-origin'], '*');
    assert.equal(res.headers['content-type'], 'text/javascript; charset=utf-8');
  });

  it('serves its languages and integrity.json beside it; the unversioned path briefly cached', async () => {
    const de = await request(app).get('/v1.4.2/locales/de.json');
    assert.equal(de.status, 200);
    assert.equal(de.text, GERMAN);
    assert.equal(de.headers['content-type'], 'application/json; charset=utf-8');
    const manifest = await request(app).get('/v1.4.2/integrity.json');
    assert.equal(manifest.body.files['pay-checkout.js'], sri(SCRIPT));
    const plain = await request(app).get('/pay-checkout.js');
    assert.equal(plain.text, SCRIPT);
    assert.equal(plain.headers['cache-control'], SHORT_CACHE);
    assert.equal(plain.headers['access-control-allow-origin'], '*');
  });

  it('another version, an unlisted file or a path out of the folder is a 404', async () => {
    const other = await request(app).get('/v1.4.1/pay-checkout.js');
    assert.equal(other.status, 404);
    assert.match(
      other.body.error.message,
      /Version 1\.4\.1 is not here; this backend serves 1\.4\.2/,
    );
    assert.equal((await request(app).get('/v1.4.2/locales/fr.json')).status, 404);
    assert.equal((await request(app).get('/v1.4.2/locales/../../package.json')).status, 404);
    assert.equal((await request(app).get('/v1.4.2/locales/%2e%2e%2fintegrity.json')).status, 404);
  });

  it('a file changed after the build is not served (503) until a build vouches for it again', async () => {
    writeFileSync(join(dir, 'pay-checkout.js'), `${SCRIPT} `);
    utimesSync(join(dir, 'integrity.json'), 2000, 2000);
    const changed = await request(app).get('/v1.4.2/locales/de.json');
    assert.equal(changed.status, 503);
    assert.match(changed.body.error.message, /pay-checkout\.js does not match integrity\.json/);
    build(dir, 3000, { 'pay-checkout.js': `${SCRIPT}//2\n`, 'locales/de.json': GERMAN });
    const rebuilt = await request(app).get('/v1.4.2/pay-checkout.js');
    assert.equal(rebuilt.text, `${SCRIPT}//2\n`);
  });
});

describe('with no widget folder (a backend bundled into an app of its own)', () => {
  it('every file answers 503 saying so', async () => {
    const app = express()
      .use(widgetFilesRouter(undefined))
      .use(errorMiddleware(createLogger({ level: 'silent' })));
    const res = await request(app).get('/v1.4.2/pay-checkout.js');
    assert.equal(res.status, 503);
    assert.match(res.body.error.message, /this backend has no widget folder/);
  });
});

describe('the backend serves them', () => {
  const dir = mkdtempSync(join(tmpdir(), 'widget-files-app-'));
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox();
    build(dir, 1000);
  });
  after(async () => {
    await sb.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('at /v<version>/ with no key, beside its APIs', async () => {
    const be = await startBackend(sb, { widgetDir: dir });
    try {
      const res = await request(be.checkout.app).get('/v1.4.2/pay-checkout.js');
      assert.equal(res.status, 200);
      assert.equal(res.text, SCRIPT);
      assert.equal(res.headers['cross-origin-resource-policy'], 'cross-origin');
    } finally {
      await be.close();
    }
  });
});
