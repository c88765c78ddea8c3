/**
 * The tiny page the return endpoint answers. One fixed script, allowed by its SHA-256 hash in a
 * strict CSP (no other script, no inline handlers, nothing loaded from anywhere). The per-order
 * data travels in a JSON data block (never executed), so the script, and its hash, never change.
 *
 * Framed (inside the launcher page's frame, inside the widget's frame; or deeper, when an ACS
 * posts from a frame of its own): post the ReturnMessage to every ancestor, targeted at the
 * merchant page's exact origin only, so only the merchant page gets it.
 * Top level (the shopper's whole page was redirected): go back to the session's returnUrl.
 */
import { createHash } from 'node:crypto';
import type { ReturnMessage } from '../../../../../contract/api-types.js';
import type { PageLanguage, PageWordKey } from '../page-words/index.js';

const SCRIPT = `(function () {
  var data = JSON.parse(document.getElementById('pay-checkout-return').textContent);
  if (window.parent !== window) {
    if (data.origin) {
      for (var w = window.parent; ; w = w.parent) {
        w.postMessage(data.message, data.origin);
        if (w === window.top) break;
      }
    }
  } else if (data.returnUrl) {
    window.location.replace(data.returnUrl);
  }
})();`;

export const RETURN_SCRIPT_HASH = `sha256-${createHash('sha256').update(SCRIPT, 'utf8').digest('base64')}`;

/** The page's own CSP: only its one script, no frames of its own, forms nowhere. */
export const RETURN_PAGE_CSP = [
  "default-src 'none'",
  `script-src '${RETURN_SCRIPT_HASH}'`,
  "style-src 'unsafe-inline'",
  "base-uri 'none'",
  "form-action 'none'",
  // It lives inside the merchant page's frames: the allowed merchant origins may frame it.
].join('; ');

export interface ReturnPageInput {
  message: ReturnMessage;
  /** The merchant page's exact origin (stored with the order); null: never post. */
  origin: string | null;
  /** Where a top-level page goes back to; null: stay and show the text. */
  returnUrl: string | null;
  /** The shopper's language (their browser's Accept-Language). */
  language: PageLanguage;
  /** Shown to a human who sees the page (top level without returnUrl, or a refused post). */
  text: PageWordKey;
}

/** JSON inside <script type="application/json">: `<` escaped so no `</script>` can close it. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function renderReturnPage(input: ReturnPageInput): string {
  const data = { message: input.message, origin: input.origin, returnUrl: input.returnUrl };
  const { lang, dir, words } = input.language;
  return `<!doctype html>
<html lang="${lang}" dir="${dir}"><head><meta charset="utf-8"><meta name="robots" content="noindex">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(words.pageTitle)}</title>
<style>body{font:16px system-ui,sans-serif;margin:2rem;color:#333}</style></head>
<body><main><p>${escapeHtml(words[input.text])}</p></main>
<script type="application/json" id="pay-checkout-return">${jsonForScript(data)}</script>
<script>${SCRIPT}</script>
</body></html>`;
}
