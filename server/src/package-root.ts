/**
 * The folder of the pay-checkout package this code runs from: the repository when run from its
 * sources (server/src), the installed package when compiled (dist/node/server/src), found by
 * walking up to the package.json that names it. Its dist/cdn holds the element's files.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function packageRoot(from: string = fileURLToPath(import.meta.url)): string {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'pay-checkout')
      return dir;
    if (dirname(dir) === dir) throw new Error(`no pay-checkout package.json above ${from}`);
  }
}
