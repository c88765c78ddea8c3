/**
 * `npx pay-checkout integrity [--base <url>] [--dir <folder>]`: the `<script>` tag a merchant
 * pastes to pin the element (PCI DSS 6.4.3), from the build's integrity.json: the versioned path
 * under `--base` (where the backend or a CDN serves the folder), its sha384, `crossorigin`.
 * The file is hashed again first: a folder changed since its build prints no tag.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { packageRoot } from '../package-root.js';
import { sri } from '../sri.js';

export interface ToolResult {
  code: number;
  out: string;
}

export function integrityTag(args: string[]): ToolResult {
  let values: { base?: string; dir?: string };
  try {
    ({ values } = parseArgs({
      args,
      options: { base: { type: 'string' }, dir: { type: 'string' } },
    }));
  } catch (error) {
    return {
      code: 2,
      out: `${(error as Error).message}\nUsage: pay-checkout integrity [--base <url>] [--dir <folder>]`,
    };
  }
  const dir = values.dir ?? join(packageRoot(), 'dist', 'cdn');
  let manifest: { version: string; files: Record<string, string> };
  let script: Buffer;
  try {
    manifest = JSON.parse(readFileSync(join(dir, 'integrity.json'), 'utf8'));
    script = readFileSync(join(dir, 'pay-checkout.js'));
  } catch {
    return { code: 1, out: `No built widget in ${dir} (run npm run build)` };
  }
  const hash = manifest.files['pay-checkout.js'];
  if (hash !== sri(script))
    return {
      code: 1,
      out: `${join(dir, 'pay-checkout.js')} does not match integrity.json: rebuild it`,
    };
  let src: string;
  try {
    const base = values.base ? new URL(values.base) : undefined;
    if (base && !/^https?:$/.test(base.protocol)) throw new Error();
    const path = `v${manifest.version}/pay-checkout.js`;
    src = base ? new URL(path, base.href.endsWith('/') ? base : `${base.href}/`).href : `/${path}`;
  } catch {
    return { code: 2, out: `--base must be an http(s) URL, not "${values.base}"` };
  }
  return {
    code: 0,
    out: `<script type="module" src="${src}" integrity="${hash}" crossorigin="anonymous"></script>`,
  };
}
