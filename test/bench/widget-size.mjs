#!/usr/bin/env node
// Size of the CDN file (Lit included): min, gzip -9 and brotli, beside peers measured the same way
// (gzip -9 bytes, from /work/shared/notes/toolchain.md and Adyen's own size-limit figures).
// Builds first unless --no-build. A benchmark script, not a test: it prints, and exits 1 only
// when the 25 KB gzip budget is exceeded.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const file = join(root, 'dist/cdn/pay-checkout.js');
const BUDGET_GZIP = 25 * 1024;

if (!process.argv.includes('--no-build')) {
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'ignore' });
}

const src = readFileSync(file);
const gzip = gzipSync(src, { level: 9 }).length;
const brotli = brotliCompressSync(src, {
  params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: src.length },
}).length;

const rows = [
  ['pay-checkout (this, CDN file, Lit included)', src.length, gzip, brotli],
  ['minimal Lit element bundled with Lit', null, 6300, null],
  ['braintree-web 3.144 client + three-d-secure', null, 31827, null],
  ['@adyen/adyen-web 6.45 Checkout + Card, bundled', null, 95612, null],
  ['@adyen/adyen-web 6.45 single-file bundle', null, 178870, null],
];

const kb = (n) => (n == null ? '-' : `${(n / 1024).toFixed(1)} KB`);
const pad = (s, n) => String(s).padEnd(n);
console.log(`${pad('bundle', 50)}${pad('min', 11)}${pad('gzip -9', 11)}brotli`);
for (const [name, min, gz, br] of rows)
  console.log(`${pad(name, 50)}${pad(kb(min), 11)}${pad(kb(gz), 11)}${kb(br)}`);
console.log(
  `\nbudget: ${kb(BUDGET_GZIP)} gzip -> ${gzip <= BUDGET_GZIP ? 'within' : 'OVER'} (${gzip} bytes)`,
);
process.exitCode = gzip <= BUDGET_GZIP ? 0 : 1;
