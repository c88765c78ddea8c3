/**
 * The launcher page: the one page of ours that posts a form to the gateway or an ACS (3DS Method,
 * CReq, PaReq) or frames the gateway's own page (our page serving its html, or its 3DS address). The widget loads it in a frame (or, in redirect
 * mode, sends the whole page to it), so the merchant page never posts a form or frames a bank: it
 * needs `frame-src` and `connect-src` for the backend's origin only, whatever its `form-action`.
 *
 * Framed, the form goes into a frame inside this page: a frame's own navigations are checked
 * against its parent's `frame-src`, which here is ours (https, loopback for the sandbox), not the
 * merchant's. At the top level the form goes to `_self`, once per tab: Back from the bank's page
 * lands here again and goes on back to the shop instead of posting the used CReq again.
 *
 * One fixed script, allowed by its hash (as the return page's); the per-step data travels in a
 * JSON data block and in the form's markup, escaped.
 *
 * With nothing to post (the step is over, or unknown) the page says so in the shopper's language,
 * with a link back to the shop when the session has a return URL: a tab that never saw the step
 * (reopened, shared, bookmarked) stays here, and must not be a blank page.
 */
import { createHash } from 'node:crypto';
import type { PageLanguage } from '../page-words/index.js';

/** The frame inside the page the form posts into (framed mode). */
export const BANK_FRAME = 'pay-checkout-bank';

const SCRIPT = `(function () {
  var data = JSON.parse(document.getElementById('pay-checkout-launch-data').textContent);
  var form = document.getElementById('pay-checkout-launch');
  if (window.parent !== window) {
    if (form) form.submit();
    else if (data.pageUrl) document.getElementById('pay-checkout-bank').src = data.pageUrl;
    return;
  }
  var mark = 'pay-checkout-launched:' + data.key;
  var seen = false;
  try {
    seen = sessionStorage.getItem(mark) === '1';
    sessionStorage.setItem(mark, '1');
  } catch (e) {}
  if (seen) {
    if (history.length > 1) history.back();
    else if (data.returnUrl) location.replace(data.returnUrl);
    return;
  }
  if (form) {
    form.target = '_self';
    form.submit();
  } else if (data.pageUrl) {
    location.replace(data.pageUrl);
  }
})();`;

export const LAUNCH_SCRIPT_HASH = `sha256-${createHash('sha256').update(SCRIPT, 'utf8').digest('base64')}`;

/**
 * The page's policy. `banks`: where its posts and frames may go (bank-urls.ts, bankSources:
 * https, and http to this machine only while the gateway is there); 'self' frames our gateway page.
 */
export function launchPageCsp(banks: string): string {
  return [
    "default-src 'none'",
    `script-src '${LAUNCH_SCRIPT_HASH}'`,
    "style-src 'unsafe-inline'",
    `frame-src 'self' ${banks}`,
    `form-action ${banks}`,
    "base-uri 'none'",
  ].join('; ');
}

export interface LaunchForm {
  url: string;
  fields: Record<string, string>;
}

export interface LaunchPageInput {
  /** The step's key: the top-level page posts each key once per tab. */
  key: string;
  /** The form to post (Method, CReq, PaReq); absent for the gateway's own page. */
  form?: LaunchForm | undefined;
  /**
   * The gateway's own page: our page serving its html, or its 3DS address (framed inside, or the
   * whole page at the top level).
   */
  pageUrl?: string | undefined;
  /** Where a top-level page with nothing (left) to post goes back to. */
  returnUrl: string | null;
  /** The shopper's language (their browser's Accept-Language): the titles. */
  language: PageLanguage;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON inside <script type="application/json">: `<`, `>`, `&` escaped so nothing can close it. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026');
}

function renderForm(form: LaunchForm): string {
  const inputs = Object.entries(form.fields)
    .map(
      ([name, value]) =>
        `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`,
    )
    .join('');
  return `<form id="pay-checkout-launch" method="POST" enctype="application/x-www-form-urlencoded" action="${escapeHtml(form.url)}" target="${BANK_FRAME}" hidden>${inputs}</form>`;
}

/** The page's body when it has nothing to post: what happened, and the way back. */
function renderOver(input: LaunchPageInput): string {
  const { words } = input.language;
  const back =
    input.returnUrl && /^https?:\/\//i.test(input.returnUrl)
      ? `<a href="${escapeHtml(input.returnUrl)}">${escapeHtml(words.backToShop)}</a>`
      : escapeHtml(words.closePage);
  return `<main><h1>${escapeHtml(words.bankTitle)}</h1><p>${escapeHtml(words.stepOver)}</p><p>${back}</p></main>`;
}

export function renderLaunchPage(input: LaunchPageInput): string {
  const data = { key: input.key, pageUrl: input.pageUrl ?? null, returnUrl: input.returnUrl };
  const { lang, dir, words } = input.language;
  const title = escapeHtml(words.bankTitle);
  return `<!doctype html>
<html lang="${lang}" dir="${dir}"><head><meta charset="utf-8"><meta name="robots" content="noindex">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>
${
  input.form || input.pageUrl
    ? `<style>html,body{margin:0;height:100%;overflow:hidden}iframe{display:block;border:0;width:100%;height:100%}</style></head>
<body><iframe id="${BANK_FRAME}" name="${BANK_FRAME}" title="${title}" allow="payment *; publickey-credentials-get *; publickey-credentials-create *"></iframe>
${input.form ? renderForm(input.form) : ''}`
    : `<style>body{font:16px system-ui,sans-serif;margin:2rem;color:#333;line-height:1.5}h1{font-size:1.25rem}a{color:#1a4fb5}</style></head>
<body>${renderOver(input)}`
}
<script type="application/json" id="pay-checkout-launch-data">${jsonForScript(data)}</script>
<script>${SCRIPT}</script>
</body></html>`;
}
