import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatChange, pageChanges } from '../../../../server/src/tools/watch-page/diff.js';
import type { PageInventory } from '../../../../server/src/tools/watch-page/inventory.js';

const BEFORE: PageInventory = {
  url: 'https://shop.example/pay',
  scripts: [
    {
      src: 'https://pay.example/v0.2.0/pay-checkout.js',
      integrity: 'sha384-A',
      content: 'sha384-A',
    },
    { src: 'https://cdn.example/a.js', content: 'sha384-X' },
    { inline: 'sha256-1' },
  ],
  headers: { 'content-security-policy': "script-src 'self'", 'x-frame-options': 'DENY' },
};

test('an unchanged page has no change', () => {
  assert.deepEqual(pageChanges(BEFORE, structuredClone(BEFORE)), []);
});

test('added, removed and changed scripts and headers, one line each', () => {
  const after: PageInventory = {
    ...BEFORE,
    scripts: [
      {
        src: 'https://pay.example/v0.2.0/pay-checkout.js',
        integrity: 'sha384-A',
        content: 'sha384-A',
      },
      { src: 'https://cdn.example/a.js', content: 'sha384-Y' },
      { src: 'https://evil.example/skim.js', content: 'sha384-Z' },
      { inline: 'sha256-2' },
    ],
    headers: {
      'content-security-policy': "script-src 'self' https://evil.example",
      'referrer-policy': 'no-referrer',
    },
  };
  assert.deepEqual(pageChanges(BEFORE, after).map(formatChange), [
    '~ script https://cdn.example/a.js: "no integrity content=sha384-X" -> "no integrity content=sha384-Y"',
    '+ script https://evil.example/skim.js (no integrity content=sha384-Z)',
    '+ script inline sha256-2',
    '- script inline sha256-1',
    `~ header content-security-policy: "script-src 'self'" -> "script-src 'self' https://evil.example"`,
    '+ header referrer-policy: "no-referrer"',
    '- header x-frame-options: "DENY"',
  ]);
});

test('a script included twice, then once: one removed', () => {
  const twice = { ...BEFORE, scripts: [{ inline: 'sha256-1' }, { inline: 'sha256-1' }] };
  const once = { ...BEFORE, scripts: [{ inline: 'sha256-1' }] };
  assert.deepEqual(pageChanges(twice, once), [
    { kind: 'removed', what: 'script', name: 'inline sha256-1', before: '' },
  ]);
});
