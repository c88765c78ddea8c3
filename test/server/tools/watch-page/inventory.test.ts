import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { attributesOf, pageInventory } from '../../../../server/src/tools/watch-page/inventory.js';

const PAGE = `<!doctype html><html><head>
<meta http-equiv="Content-Security-Policy" content="script-src 'self' 'nonce-r4nd0m'">
<script type="module" src="/v0.2.0/pay-checkout.js" integrity="sha384-abc" crossorigin="anonymous" nonce="n1"></script>
<script src='https://cdn.example/a.js?x=1&amp;y=2'></script>
<!-- <script src="/commented-out.js"></script> -->
<script>window.shop = 1;</script>
<script type="application/ld+json">{"@type":"Product"}</script>
</head><body></body></html>`;

const sha256 = (text: string) => `sha256-${createHash('sha256').update(text).digest('base64')}`;

test('every script: external by address and integrity, inline by its CSP hash; comments skipped', () => {
  const inventory = pageInventory('https://shop.example/checkout?o=1', PAGE, {});
  assert.deepEqual(inventory.scripts, [
    {
      src: 'https://shop.example/v0.2.0/pay-checkout.js',
      integrity: 'sha384-abc',
      type: 'module',
    },
    { src: 'https://cdn.example/a.js?x=1&y=2' },
    { inline: sha256('window.shop = 1;') },
    { inline: sha256('{"@type":"Product"}'), type: 'application/ld+json' },
  ]);
});

test('the watched headers and a <meta> policy, without per-load nonces', () => {
  const headers = new Headers({
    'Content-Security-Policy': "script-src 'nonce-a1b2' https://pay.example; report-to csp",
    'Referrer-Policy': 'strict-origin',
    'X-Frame-Options': 'DENY',
    'Set-Cookie': 'id=1',
    Date: 'Sat, 28 Nov 2026 00:00:00 GMT',
  });
  assert.deepEqual(pageInventory('https://shop.example/', PAGE, headers).headers, {
    'content-security-policy': "script-src 'nonce-…' https://pay.example; report-to csp",
    'referrer-policy': 'strict-origin',
    'x-frame-options': 'DENY',
    'meta:content-security-policy': "script-src 'self' 'nonce-…'",
  });
});

test('attributes: quoted either way, bare, unquoted, entities decoded, first one wins', () => {
  assert.deepEqual(attributesOf(` src="a&quot;b" async data-x=1 SRC='c' type=module`), {
    src: 'a"b',
    async: '',
    'data-x': '1',
    type: 'module',
  });
});
