/**
 * watch-page against a real page on loopback: recorded, unchanged (exit 0), a script added and
 * the CSP changed (exit 1, each named, the signed webhook sent), accepted with --update, and the
 * CLI itself (`pay-checkout watch-page`) with its exit codes.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { verifyWebhook } from '../../../../server/src/checkout/webhooks/webhook-signature.js';
import { watchPage } from '../../../../server/src/tools/watch-page/command.js';

const page = {
  csp: "script-src 'self' https://pay.example; report-to csp",
  scripts: [
    '<script type="module" src="/v0.2.0/pay-checkout.js" integrity="sha384-A" crossorigin></script>',
  ],
};
const hooks: { body: string; signature: string }[] = [];
const server = createServer((req, res) => {
  if (req.url === '/hook') {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      hooks.push({ body, signature: String(req.headers['pay-checkout-signature']) });
      res.writeHead(204).end();
    });
    return;
  }
  if (req.url?.endsWith('.js')) return void res.writeHead(200).end(`/* ${req.url} */`);
  res
    .writeHead(200, { 'Content-Type': 'text/html', 'Content-Security-Policy': page.csp })
    .end(`<!doctype html><title>Pay</title>${page.scripts.join('')}<pay-checkout></pay-checkout>`);
});
const dir = mkdtempSync(join(tmpdir(), 'watch-page-'));
const baseline = join(dir, 'baseline.json');
let url = '';
let env: Record<string, string> = {};
before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  url = `${origin}/checkout`;
  env = { WEBHOOK_URL: `${origin}/hook`, WEBHOOK_SECRET: 'whsec-0123456789-abcdef' };
});
after(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

const watch = (...args: string[]) =>
  watchPage([url, '--baseline', baseline, ...args], { fetch, env });

test('records a baseline, then an unchanged page exits 0', async () => {
  assert.deepEqual(await watch(), {
    code: 0,
    out: `Baseline recorded in ${baseline}: 1 scripts, 1 headers.`,
  });
  const recorded = JSON.parse(readFileSync(baseline, 'utf8'));
  assert.equal(recorded.page.scripts[0].src, url.replace('/checkout', '/v0.2.0/pay-checkout.js'));
  assert.match(recorded.page.scripts[0].content, /^sha384-/);
  const again = await watch();
  assert.equal(again.code, 0);
  assert.match(again.out, /^No change to http:\/\/127\.0\.0\.1:\d+\/checkout since /);
});

test('an added script and a changed CSP: exit 1, each named, the signed webhook sent', async () => {
  page.scripts.push('<script src="https://127.0.0.1:9/skim.js"></script>');
  page.csp = "script-src 'self' https://pay.example 'unsafe-inline'; report-to csp";
  const result = await watch('--webhook');
  assert.equal(result.code, 1);
  const lines = result.out.split('\n');
  assert.ok(
    lines.includes(
      '+ script https://127.0.0.1:9/skim.js (no integrity content=unreachable (TypeError))',
    ),
    result.out,
  );
  assert.ok(
    lines.includes(
      `~ header content-security-policy: "script-src 'self' https://pay.example; report-to csp" -> "script-src 'self' https://pay.example 'unsafe-inline'; report-to csp"`,
    ),
    result.out,
  );
  assert.match(result.out, /Webhook: sent security\.page-changed [0-9a-f-]{36}/);
  const [hook] = hooks;
  assert.ok(hook && verifyWebhook(hook.body, hook.signature, env.WEBHOOK_SECRET as string));
  const event = JSON.parse(hook.body);
  assert.equal(event.type, 'security.page-changed');
  assert.equal(event.data.url, url);
  assert.equal(event.data.changes.length, 2);
  // Still a change until someone accepts it.
  assert.equal((await watch()).code, 1);
});

test('--update accepts the change as the new baseline', async () => {
  const accepted = await watch('--update');
  assert.equal(accepted.code, 0);
  assert.match(accepted.out, /Recorded as the new baseline/);
  assert.equal((await watch()).code, 0);
});

test('the CLI: exit codes 0 unchanged, 1 changed, 2 for a page it cannot read', async () => {
  const cli = (...args: string[]) =>
    new Promise<{ code: number; out: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', 'server/src/main.ts', 'watch-page', ...args],
        { cwd: join(import.meta.dirname, '../../../..') },
        (error, stdout, stderr) =>
          resolve({ code: error ? Number(error.code) : 0, out: stdout + stderr }),
      );
    });
  assert.equal((await cli(url, '--baseline', baseline)).code, 0);
  page.scripts.pop();
  const changed = await cli(url, '--baseline', baseline);
  assert.equal(changed.code, 1);
  assert.match(changed.out, /- script https:\/\/127\.0\.0\.1:9\/skim\.js/);
  const unreadable = await cli('http://127.0.0.1:9/', '--baseline', baseline);
  assert.equal(unreadable.code, 2);
  assert.match(unreadable.out, /Could not read http:\/\/127\.0\.0\.1:9\//);
  assert.equal((await cli('not-a-url')).code, 2);
});
