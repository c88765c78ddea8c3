/**
 * The demo serves the widget's files once their build is done: `npm start` builds a missing or
 * stale widget beside its own start, and is ready (and serves the shop's pages) before it ends.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import express from 'express';
import { createDemoRouter } from '../../demo/server.js';

let root: string;
before(async () => {
  root = await mkdtemp(join(tmpdir(), 'demo-widget-'));
});
after(async () => {
  await rm(root, { recursive: true, force: true });
});

test('the widget file and its languages are served once the build is done, pages at once', async () => {
  const widgetFile = join(root, 'cdn', 'pay-checkout.js');
  let finishBuild = () => {};
  const widgetBuilt = new Promise<void>((resolvePromise) => {
    finishBuild = resolvePromise;
  });
  const app = express().use(
    createDemoRouter({
      merchantApiUrl: 'http://127.0.0.1:9',
      merchantApiKey: 'key',
      shopUrl: 'http://127.0.0.1',
      widgetFile,
      widgetBuilt,
    }),
  );
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolvePromise) => server.once('listening', resolvePromise));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const widget = fetch(`${base}/pay-checkout.js`);
    const locale = fetch(`${base}/locales/fr.json`);
    // The shop's page does not wait for the build.
    const page = await fetch(`${base}/`);
    assert.equal(page.status, 200);
    await page.body?.cancel();
    // The build writes the files, then settles.
    await mkdir(join(root, 'cdn', 'locales'), { recursive: true });
    await writeFile(widgetFile, 'export {};\n');
    await writeFile(join(root, 'cdn', 'locales', 'fr.json'), '{}\n');
    finishBuild();
    const script = await widget;
    assert.equal(script.status, 200);
    assert.equal(await script.text(), 'export {};\n');
    const language = await locale;
    assert.equal(language.status, 200);
    assert.equal(await language.text(), '{}\n');
  } finally {
    await new Promise((resolvePromise) => server.close(resolvePromise));
  }
});

test('a failed build: the widget file is missing, and the demo says how to build it', async () => {
  const app = express().use(
    createDemoRouter({
      merchantApiUrl: 'http://127.0.0.1:9',
      merchantApiKey: 'key',
      shopUrl: 'http://127.0.0.1',
      widgetFile: join(root, 'none', 'pay-checkout.js'),
      widgetBuilt: Promise.reject(new Error('the widget build failed (exit 1)')),
    }),
  );
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolvePromise) => server.once('listening', resolvePromise));
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const script = await fetch(`${base}/pay-checkout.js`);
    assert.equal(script.status, 404);
    assert.match(await script.text(), /npm run build/);
  } finally {
    await new Promise((resolvePromise) => server.close(resolvePromise));
  }
});
