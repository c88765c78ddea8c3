#!/usr/bin/env node
// `npm run build` (and `npm pack`, via prepack): the widget's three outputs, then the backend and
// its client (`--cdn`: the first one only).
//   dist/cdn/pay-checkout.js   one minified ES module, Lit bundled (Vite, vite.config.ts)
//   dist/cdn/locales/*.json    each language but English as data, and their hashes (index.json)
//   dist/cdn/integrity.json    sha384 of every file of dist/cdn (scripts/language-data.mjs)
//   dist/esm/                  one .js + .d.ts per source file, Lit imported (tsc, widget/tsconfig.build.json)
//   custom-elements.json       the custom elements manifest (cem analyze, Lit-aware)
//   dist/node/                 pay-checkout/server and pay-checkout/client: .js + .d.ts (tsc, server/tsconfig.build.json)
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'vite';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
// The project's TypeScript by its package, not `.bin/tsc`: the client generator's TypeScript 5
// (the `typescript-5-api` alias, scripts/typescript-5-hook.mjs) links a `tsc` of its own there.
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });

process.chdir(root);

console.log('== CDN bundle');
await build({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn' });
// `--cdn`: only the file the demo and the end-to-end tests serve (see server/src/widget-build.ts).
if (process.argv.includes('--cdn')) process.exit(0);

console.log('== ESM build + types');
rmSync(join(root, 'dist/esm'), { recursive: true, force: true });
run(tsc, ['-p', 'widget/tsconfig.build.json']);

console.log('== pay-checkout/server and pay-checkout/client + types');
rmSync(join(root, 'dist/node'), { recursive: true, force: true });
run(tsc, ['-p', 'server/tsconfig.build.json']);

console.log('== custom-elements.json');
run(bin('cem'), [
  'analyze',
  '--litelement',
  '--globs',
  'widget/src/**/*.ts',
  '--outdir',
  '.',
  '--quiet',
]);
tidyManifest(join(root, 'custom-elements.json'));

const cdn = readFileSync(join(root, 'dist/cdn/pay-checkout.js'));
const gz = gzipSync(cdn, { level: 9 }).length;
const br = brotliCompressSync(cdn, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
console.log(`dist/cdn/pay-checkout.js: ${cdn.length} B min, ${gz} B gzip -9, ${br} B brotli`);

/**
 * The analyzer lists Lit's internal reactive state (`_status`, ...) as attributes, private `_` and `#`
 * members as members, and reads the generic `this._emit(name, ...)` helper as an event called
 * "name"; none of them is public API.
 */
function tidyManifest(file) {
  // Paths point at the published ESM files, not the TypeScript sources.
  const text = readFileSync(file, 'utf8').replace(
    /"\/?widget\/src\/([^"]*?)\.(?:ts|js)"/g,
    '"dist/esm/widget/src/$1.js"',
  );
  const manifest = JSON.parse(text);
  for (const mod of manifest.modules ?? []) {
    for (const decl of mod.declarations ?? []) {
      const isPublic = (x) => !/^[_#]/.test(x.name);
      if (decl.attributes) decl.attributes = decl.attributes.filter(isPublic);
      if (decl.members) decl.members = decl.members.filter(isPublic);
      if (decl.events) decl.events = decl.events.filter((e) => e.name?.startsWith('pay-'));
    }
  }
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
}
