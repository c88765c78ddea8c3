/**
 * Small HTML templates for the pages the sandbox serves to browsers (fake ACS, hosted forms).
 * Strict headers, framed only where it is meant to be: the merchant shows these pages in an
 * iframe, so `frame-ancestors` lists the backend's and the merchant pages' origins (the sandbox's
 * `frameAncestors` option) and no other site can frame the card form. Inline script and style run
 * only with a per-response CSP nonce. Forms may post anywhere http(s): the ACS posts back to the
 * merchant.
 */
import { randomBytes } from 'node:crypto';
import type { Response } from 'express';
import { fromMinorUnits } from '../../signing/index.js';
import type { Transaction } from '../model.js';

/** The amount as the shopper reads it: `10.42 EUR`. */
export function amountText(tx: Transaction): string {
  return `${fromMinorUnits(tx.amountMinor, tx.currency)} ${tx.currency}`;
}

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:16px;color:#1a1a1a;background:#fff}
main{max-width:420px;margin:0 auto}
h1{font-size:1.25rem;margin:0 0 .75rem}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input{font:inherit;padding:.5rem;width:100%;box-sizing:border-box;border:1px solid #555;border-radius:4px}
input[aria-invalid=true]{border-color:#b00020}
.error{color:#b00020;margin:.25rem 0 0}
.actions{display:flex;gap:.5rem;margin-top:1rem}
button{font:inherit;padding:.5rem 1rem;border-radius:4px;border:1px solid #1a1a1a;background:#1a1a1a;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#1a1a1a}
button:focus-visible,input:focus-visible{outline:3px solid #2563eb;outline-offset:2px}
.hint{color:#444;font-size:.9rem}`;

export interface Page {
  title: string;
  /** Trusted HTML (callers escape every value they interpolate). */
  body: string;
  /** Inline script, run with the page's nonce. */
  script?: string;
  status?: number;
}

/** Sends pages whose CSP lets only `frameAncestors` frame them. */
export type PageSender = (res: Response, page: Page) => void;

export function pageSender(frameAncestors: readonly string[]): PageSender {
  const framing = `frame-ancestors ${frameAncestors.join(' ')}`;
  return (res, page) => sendPage(res, page, framing);
}

function sendPage(res: Response, page: Page, framing: string): void {
  const nonce = randomBytes(16).toString('base64');
  res
    .status(page.status ?? 200)
    .set({
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; form-action http: https:; base-uri 'none'; ${framing}`,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
    })
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
        `<meta name="viewport" content="width=device-width,initial-scale=1">` +
        `<title>${escapeHtml(page.title)}</title><style nonce="${nonce}">${STYLE}</style></head>` +
        `<body><main>${page.body}</main>` +
        (page.script ? `<script nonce="${nonce}">${page.script}</script>` : '') +
        `</body></html>`,
    );
}

export function hiddenInputs(fields: Record<string, string | undefined>): string {
  return Object.entries(fields)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(
      ([name, value]) =>
        `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`,
    )
    .join('');
}

/** A page that POSTs `fields` to `action` at once (with a button when scripts do not run). */
export function autoSubmitPage(
  title: string,
  action: string,
  fields: Record<string, string | undefined>,
): Page {
  return {
    title,
    body:
      `<h1>${escapeHtml(title)}</h1>` +
      `<form id="auto" method="post" action="${escapeHtml(action)}">${hiddenInputs(fields)}` +
      `<p class="hint">Returning to the shop…</p><button type="submit">Continue</button></form>`,
    script: "document.getElementById('auto').submit();",
  };
}

export function messagePage(title: string, message: string, status = 200): Page {
  return {
    title,
    status,
    body: `<h1>${escapeHtml(title)}</h1><p role="alert">${escapeHtml(message)}</p>`,
  };
}

/** The one-time-code page of the 2.x challenge, the 1.0.2 ACS and gateway-driven 3DS. */
export function otpPage(options: {
  title: string;
  action: string;
  hidden: Record<string, string | undefined>;
  amount?: string;
  error?: string;
}): Page {
  const error = options.error
    ? `<p id="otp-error" class="error" role="alert">${escapeHtml(options.error)}</p>`
    : '';
  return {
    title: options.title,
    body:
      `<h1>${escapeHtml(options.title)}</h1>` +
      (options.amount ? `<p>Purchase amount: ${escapeHtml(options.amount)}</p>` : '') +
      `<p class="hint">Sandbox: enter the test card's one-time code.</p>` +
      `<form method="post" action="${escapeHtml(options.action)}">${hiddenInputs(options.hidden)}` +
      `<label for="otp">One-time code</label>` +
      `<input id="otp" name="otp" type="text" inputmode="numeric" autocomplete="one-time-code" autofocus` +
      (options.error ? ' aria-invalid="true" aria-describedby="otp-error"' : '') +
      `>${error}` +
      `<div class="actions"><button type="submit" name="action" value="submit">Submit</button>` +
      `<button type="submit" name="action" value="cancel" class="secondary" formnovalidate>Cancel</button></div>` +
      `</form>`,
  };
}
