// Vite builds the one-file CDN bundle of the widget (Lit included, minified ES module).
// `npm run build` (scripts/build.mjs) runs it, then writes the ESM build for bundlers and the
// custom elements manifest. Demo and backend are not built by Vite.
import { defineConfig } from 'vite';
import { minifyLiteralsPlugin } from './scripts/minify-literals.mjs';

export default defineConfig({
  publicDir: false,
  plugins: [minifyLiteralsPlugin()],
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
      // Library mode leaves whitespace in the `es` format; a CDN file is only ever read by browsers.
      output: { minify: true, comments: { legal: false, annotation: false } },
    },
  },
});
