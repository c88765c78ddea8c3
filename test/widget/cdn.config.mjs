// The element's browser tests against the built CDN file (dist/cdn/pay-checkout.js) instead of
// the sources: what the build does to the code (minified literals, mangled internal property
// names) is checked by the same tests. Build first: `node scripts/build.mjs --cdn`, then
// `web-test-runner --config test/widget/cdn.config.mjs` (scripts/test-browser.sh does both).
import { existsSync } from 'node:fs';
import base from '../../web-test-runner.config.mjs';

const CDN_FILE = new URL('../../dist/cdn/pay-checkout.js', import.meta.url).pathname;
if (!existsSync(CDN_FILE))
  throw new Error('no dist/cdn/pay-checkout.js: run node scripts/build.mjs --cdn');

/** The element's entry, as test/widget/support/mount.ts imports it, becomes the CDN file. */
const useCdnFile = {
  name: 'use-cdn-file',
  resolveImport({ source }) {
    if (source.endsWith('/widget/src/pay-checkout.js')) return '/dist/cdn/pay-checkout.js';
    return undefined;
  },
};

export default {
  ...base,
  files: ['test/widget/element-*.test.ts'],
  // First: the esbuild plugin would otherwise resolve the import to the TypeScript source.
  plugins: [useCdnFile, ...base.plugins],
};
