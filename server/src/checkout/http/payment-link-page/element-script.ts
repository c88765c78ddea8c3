/**
 * The element's versioned file and its Subresource Integrity, from the CDN folder's
 * integrity.json (the build writes it; the backend serves that folder at /v<version>/): the page
 * pins exactly the bytes the build made, so a changed file on the way is refused by the browser.
 * Read again when integrity.json changes (a rebuild during development).
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

export interface ElementScript {
  src: string;
  integrity: string;
}

export const ELEMENT_FILE = 'pay-checkout.js';

/**
 * `load()` answers the script tag's values, or null while the folder holds no built element (or
 * there is no folder: the backend bundled into an app of the merchant's own).
 */
export function elementScriptOf(
  dir: string | undefined,
  publicUrl: string,
): () => Promise<ElementScript | null> {
  let cached: { mtimeMs: number; script: ElementScript | null } | undefined;
  return async () => {
    if (dir === undefined) return null;
    const manifest = join(dir, 'integrity.json');
    const mtimeMs = await stat(manifest).then(
      (s) => s.mtimeMs,
      () => -1,
    );
    if (cached?.mtimeMs === mtimeMs) return cached.script;
    let script: ElementScript | null = null;
    try {
      const { version, files } = JSON.parse(await readFile(manifest, 'utf8')) as {
        version?: unknown;
        files?: Record<string, unknown>;
      };
      const integrity = files?.[ELEMENT_FILE];
      if (typeof version === 'string' && typeof integrity === 'string')
        script = { src: `${publicUrl}/v${version}/${ELEMENT_FILE}`, integrity };
    } catch {
      script = null;
    }
    cached = { mtimeMs, script };
    return script;
  };
}
