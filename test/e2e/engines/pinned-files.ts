/**
 * The merchant page's ways of loading the element for the pinning journeys (pinned.ts), from the
 * widget's CDN folder as built (its integrity.json):
 * - `pinned`: docs/security.md's tag, the versioned file from the backend with its `integrity`
 *   and `crossorigin`;
 * - `file-changed`: the same tag, but the file from the shop with one byte changed;
 * - `language-changed`: the same tag and an unchanged file from the shop, whose German file beside
 *   it has one byte changed (still valid JSON: only its hash can refuse it).
 * And a page whose Content-Security-Policy blocks an inline script and reports it to the backend.
 */
import assert from 'node:assert/strict';
import type { Request, Response } from 'express';

export type ScriptChoice = 'pinned' | 'file-changed' | 'language-changed';

export interface Manifest {
  version: string;
  files: Record<string, string>;
}

export const manifestOf = (widget: Map<string, Buffer>): Manifest =>
  JSON.parse(String(widget.get('/integrity.json')));

/** `bytes` with the case of one letter flipped: the first letter after `after`. */
export function oneByteChanged(bytes: Buffer, after: string): Buffer {
  const changed = Buffer.from(bytes);
  const from = changed.indexOf(after);
  assert.ok(from >= 0, `no ${after} to change a byte after`);
  for (let i = from + after.length; i < changed.length; i++) {
    if (/[A-Za-z]/.test(String.fromCharCode(changed[i] as number))) {
      changed[i] = (changed[i] as number) ^ 0x20;
      return changed;
    }
  }
  throw new Error(`no letter after ${after}`);
}

/** The changed copies the shop serves besides the folder, by path. */
export function changedCopies(widget: Map<string, Buffer>): Map<string, Buffer> {
  const { version } = manifestOf(widget);
  const copies = new Map<string, Buffer>();
  const file = widget.get('/pay-checkout.js') as Buffer;
  copies.set(`/file-changed/v${version}/pay-checkout.js`, oneByteChanged(file, 'Card number'));
  for (const [path, bytes] of widget) {
    const copy = path === '/locales/de.json' ? oneByteChanged(bytes, '":"') : bytes;
    copies.set(`/language-changed/v${version}${path}`, copy);
  }
  return copies;
}

/** The `<script>` of `choice`; `window.scriptRefused` once the browser refuses the file. */
export function scriptTag(choice: ScriptChoice, backend: string, manifest: Manifest): string {
  const path = `v${manifest.version}/pay-checkout.js`;
  const src = choice === 'pinned' ? `${backend}/${path}` : `/${choice}/${path}`;
  return `<script type="module" src="${src}" integrity="${manifest.files['pay-checkout.js']}" crossorigin="anonymous" onerror="window.scriptRefused = true"></script>`;
}

/**
 * A payment page as docs/security.md asks, whose own inline script its policy blocks: the browser
 * reports it to the backend's `/v1/csp-reports` by `report-uri`, which all three engines send at
 * once. Not `report-to` here: where a policy names both, Chromium uses only the Reporting API,
 * which batches its reports and delivered none within 65 s on loopback (2026-11-29); the backend
 * takes that format too (test/server/checkout/http/csp-reports.test.ts).
 */
export function cspViolationPage(backend: string) {
  return (_req: Request, res: Response) => {
    const endpoint = `${backend}/v1/csp-reports`;
    res
      .set(
        'Content-Security-Policy',
        `default-src 'self'; script-src 'self' ${backend}; connect-src 'self' ${backend}; object-src 'none'; base-uri 'none'; report-uri ${endpoint}`,
      )
      .type('html')
      .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pay</title>
<script>window.injected = true;</script></head><body><main><h1>Checkout</h1></main></body></html>`);
  };
}
