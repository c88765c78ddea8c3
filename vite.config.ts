// Vite builds the one-file CDN bundle of the widget (Lit included, minified ES module).
// `npm run build` (scripts/build.mjs) runs it (with the languages as data and integrity.json:
// scripts/language-data.mjs), then writes the ESM build for bundlers and the
// custom elements manifest. Demo and backend are not built by Vite.
import { minify } from 'terser';
import { defineConfig, type Plugin } from 'vite';
import { languagesAsData } from './scripts/language-data.mjs';
import { minifyLiteralsPlugin } from './scripts/minify-literals.mjs';

/**
 * Properties the minifier renames: `_name`, our convention for a member no one outside the widget
 * reads (the element's internal reactive state, `_status`, `_result`, ...; every `private` member
 * of the element and its controllers, rather than a `#name`, which would stay `#e`-long and be
 * declared once more in the class body: about 80 B of gzip). Lit's own internals are
 * `_$name` and never match; nothing public (attributes, properties, event details, the backend's
 * JSON) starts with `_`. The minifier renames every `obj._name` and `{ _name }` alike, so the one
 * way to break it is to reach such a member through a string (`changed.has('_status')`,
 * `obj['_status']`); internalNamesAsStrings() refuses a build whose sources do.
 */
const INTERNAL_PROPERTY = /^_[a-z]/;

function internalNamesAsStrings(): Plugin {
  return {
    name: 'pay-checkout:no-internal-names-as-strings',
    transform(code, id) {
      if (!/\/widget\/src\/.*\.ts$/.test(id)) return null;
      const found = /(['"`])(_[a-z]\w*)\1/.exec(code);
      if (found) this.error(`${id}: '${found[2]}' as a string; the CDN build renames _-members`);
      return null;
    },
  };
}

/**
 * terser's compressor over the file the bundler minified (the bundler's renaming kept: terser
 * does not mangle again): about 110 B of gzip (test/bench/widget-size.mjs measures the file). It
 * takes four of terser's "unsafe" options, each an assumption about the code that holds for
 * ours and Lit's, and that the element's tests on the built file check (test/widget/cdn.config.mjs):
 * - `unsafe_arrows`: a `function` that uses no `this` or `arguments` may be an arrow (none is
 *   called with `new`);
 * - `unsafe`: among others, `${x}` and String(x) may be `"" + x` (no value so written is a Symbol);
 * - `pure_getters`: reading a property has no side effect worth keeping a read for (nothing reads
 *   one for its effect, such as a layout);
 * - `keep_fargs: false`: a function's unused trailing parameters go (nothing reads a function's
 *   `length`, the one thing that changes): 9 B.
 * The source map follows, so the bench can still say which source each byte came from.
 */
function terserPass(): Plugin {
  return {
    name: 'pay-checkout:terser-pass',
    apply: 'build',
    async generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const out = await minify(chunk.code, {
          module: true,
          ecma: 2022,
          compress: {
            passes: 3,
            unsafe_arrows: true,
            unsafe: true,
            pure_getters: true,
            keep_fargs: false,
          },
          mangle: false,
          format: { comments: false },
          sourceMap: chunk.map ? { content: JSON.stringify(chunk.map), asObject: true } : false,
        });
        if (out.code === undefined) this.error(`terser returned no code for ${chunk.fileName}`);
        chunk.code = out.code;
        if (chunk.map && out.map) Object.assign(chunk.map, out.map);
      }
    },
  };
}

export default defineConfig({
  publicDir: false,
  plugins: [
    internalNamesAsStrings(),
    // Languages as JSON beside the file, checked against a hash baked into it; integrity.json.
    languagesAsData({
      dir: 'widget/src/i18n/locales',
      load: /\/widget\/src\/i18n\/load\.ts$/,
    }),
    minifyLiteralsPlugin(),
    terserPass(),
  ],
  build: {
    outDir: 'dist/cdn',
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    sourcemap: false,
    lib: {
      entry: 'widget/src/pay-checkout.ts',
      formats: ['es'],
      fileName: () => 'pay-checkout.js',
    },
    rolldownOptions: {
      // The terser pass takes most of the build by design; its timing note is noise at every start.
      checks: { bundlerTimings: false },
      output: {
        // Library mode leaves whitespace in the `es` format; a CDN file is only ever read by browsers.
        minify: {
          compress: true,
          mangle: true,
          codegen: true,
          mangleProps: { include: INTERNAL_PROPERTY },
        },
        comments: { legal: false, annotation: false },
      },
    },
  },
});
