// Build step of the CDN file (vite.config.ts): the element's languages as data, and the hashes
// that let a merchant pin everything the file loads (PCI DSS 6.4.3).
//   locales/<code>.json  each language but English: the default export of
//                        widget/src/i18n/locales/<code>.ts, as JSON
//   locales/index.json   { "<code>": "sha384-…" } for every language file
//   integrity.json       { version, files: { "<path>": "sha384-…" } } for every file the CDN
//                        folder serves (`npx pay-checkout integrity` prints the tag from it)
// The hash of locales/index.json is baked into the CDN file (`__PAY_CHECKOUT_LANGUAGES__`,
// read by widget/src/i18n/load.ts), so the one hash on the merchant's <script> vouches for all.
// One hash rather than one per language: sha384 is 48 random bytes that gzip cannot shrink,
// 15 of them would cost the element about 720 B.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { runnerImport } from 'vite';

/** The Subresource Integrity value of `bytes`: `sha384-` and the base64 digest. */
export function sri(bytes) {
  return `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
}

/**
 * Each language module of `dir` as JSON text, by code. A module whose default export JSON would
 * change (a function, `undefined`, a Date) stops the build: the element reads the JSON.
 */
export async function languageFiles(dir) {
  const codes = readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.slice(0, -3))
    .sort();
  const files = {};
  for (const code of codes) {
    const file = join(dir, `${code}.ts`);
    const { module } = await runnerImport(file, { configFile: false, logLevel: 'silent' });
    const json = JSON.stringify(module.default);
    if (!isDeepStrictEqual(JSON.parse(json ?? 'null'), module.default))
      throw new Error(`${file}: its default export is not plain JSON data`);
    files[code] = json;
  }
  return files;
}

/** Every file under `dir` (paths relative to it, `/`-separated, sorted) with its hash. */
export function hashFolder(dir) {
  const files = {};
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else files[relative(dir, path).split('\\').join('/')] = sri(readFileSync(path));
    }
  };
  walk(dir);
  return Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/**
 * The Vite plugin. `load`: the module that loads languages (its ESM-only `import()` is marked
 * for Vite to leave alone; the CDN build drops it as dead code, and the bundle is refused if any
 * `import(` is left: the file must load no code).
 */
export function languagesAsData({ dir, load }) {
  let files;
  let root;
  let outDir;
  return {
    name: 'pay-checkout:languages-as-data',
    apply: 'build',
    async config() {
      files = await languageFiles(dir);
      const index = JSON.stringify(
        Object.fromEntries(Object.entries(files).map(([code, json]) => [code, sri(json)])),
      );
      files.index = index;
      return { define: { __PAY_CHECKOUT_LANGUAGES__: JSON.stringify(sri(index)) } };
    },
    configResolved(config) {
      root = config.root;
      outDir = join(config.root, config.build.outDir);
    },
    transform(code, id) {
      if (!load.test(id)) return null;
      const marked = code.replace('import(`./locales/', 'import(/* @vite-ignore */ `./locales/');
      if (marked === code)
        this.error(`${id}: the language import is not \`import(\`./locales/…\`)\``);
      return marked;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      if (chunks.length !== 1) this.error(`the CDN build made ${chunks.length} chunks, not one`);
      if (/\bimport\s*\(/.test(chunks[0].code))
        this.error(
          `${chunks[0].fileName} loads code at run time (import()): it must be one script`,
        );
      for (const [code, json] of Object.entries(files))
        this.emitFile({ type: 'asset', fileName: `locales/${code}.json`, source: json });
    },
    writeBundle() {
      const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
      const manifest = { version, files: hashFolder(outDir) };
      delete manifest.files['integrity.json'];
      writeFileSync(join(outDir, 'integrity.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    },
  };
}
