/**
 * The widget's CDN file, built when needed: `npm start` and the end-to-end tests serve
 * dist/cdn/pay-checkout.js, so it must exist and be newer than every widget source and the
 * build's own configuration.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function widgetBundlePath(root: string): string {
  return join(root, 'dist/cdn/pay-checkout.js');
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** What the CDN build reads besides its sources (vite.config.ts and its plugins). */
const SOURCE_DIRS = ['widget/src', 'contract'];

const BUILD_INPUTS = ['vite.config.ts', 'scripts/minify-literals.mjs', 'scripts/language-data.mjs'];

export function widgetBuildIsStale(root: string): boolean {
  const bundle = widgetBundlePath(root);
  if (!existsSync(bundle)) return true;
  const inputs = BUILD_INPUTS.map((f) => join(root, f)).filter((f) => existsSync(f));
  const newest = Math.max(
    ...SOURCE_DIRS.map((dir) => join(root, dir))
      .filter((dir) => existsSync(dir))
      .map(newestMtime),
    ...inputs.map((f) => statSync(f).mtimeMs),
  );
  return newest > statSync(bundle).mtimeMs;
}

/**
 * Builds the CDN file (`scripts/build.mjs --cdn`: not the ESM build or the manifest, which only
 * a published package needs) when it is missing or older than a widget or contract source.
 */
export async function ensureWidgetBuilt(root: string): Promise<'fresh' | 'built'> {
  if (!widgetBuildIsStale(root)) return 'fresh';
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'scripts/build.mjs'), '--cdn'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`the widget build failed (exit ${code})`)),
    );
  });
  return 'built';
}
