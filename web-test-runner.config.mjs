// Browser tests of the widget: Chromium from CHROME_PATH (no downloaded browser), TypeScript via
// esbuild, and fake ACS / return pages served by the test server itself.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './test/chromium.mjs';
import { fakePages } from './test/widget/support/fake-pages.mjs';

/**
 * The element imports a language as `./locales/<code>.js` by a computed path at run time, which
 * the esbuild plugin cannot rewrite: the request gets the TypeScript source, which it compiles.
 */
function languageSources(ctx, next) {
  if (/^\/widget\/src\/i18n\/locales\/\w+\.js$/.test(ctx.path))
    ctx.url = ctx.url.replace(/\.js(?=$|\?)/, '.ts');
  return next();
}

/**
 * A quiet machine's limits times the run's time scale (test/support/time-scale.ts; scripts/test.sh
 * passes TEST_TIME_SCALE): a busy machine is slower, not red.
 */
const TIME_SCALE = Number(process.env.TEST_TIME_SCALE) || 1;

export default {
  files: 'test/widget/**/*.test.ts',
  nodeResolve: { exportConditions: ['production'] },
  // One test file at a time: the tests use real keyboard focus (sendKeys), which only the
  // focused page gets, and the machine's 2 cores are shared.
  concurrency: 1,
  concurrentBrowsers: 1,
  testsFinishTimeout: Math.round(120_000 * TIME_SCALE),
  testFramework: { config: { timeout: Math.round(8000 * TIME_SCALE) } },
  middleware: [fakePages(), languageSources],
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: 'tsconfig.json' })],
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath: CHROMIUM_PATH,
        headless: true,
        args: CHROMIUM_ARGS,
      },
    }),
  ],
};
