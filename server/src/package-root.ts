/**
 * The folder of the pay-checkout package this code runs from: the repository when run from its
 * sources (server/src), the installed package when compiled (dist/node/server/src), found by
 * walking up to the package.json that names it. Its dist/cdn holds the element's files.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The element's CDN folder of this package; undefined when no package is found (the backend
 * bundled into an app of its own: the merchant serves the element themselves).
 */
export function widgetFolder(): string | undefined {
  try {
    return join(packageRoot(), 'dist', 'cdn');
  } catch {
    return undefined;
  }
}

export function packageRoot(from: string = fileURLToPath(import.meta.url)): string {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'pay-checkout')
      return dir;
    if (dirname(dir) === dir) throw new Error(`no pay-checkout package.json above ${from}`);
  }
}
