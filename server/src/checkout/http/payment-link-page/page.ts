/**
 * The payment link page: the merchant's name and logo, what is sold and its amount, and either
 * `<pay-checkout>` on the visit's session or one sentence (paid, closed, expired, ...) in the
 * shopper's language. No inline script at all: the element is its versioned file with
 * `integrity`; the one style block (the merchant's colours, set as the element's CSS properties
 * too) is allowed by its hash. The CSP names only what the page loads.
 */
import { createHash } from 'node:crypto';
import type { PaymentLinkPageConfig } from '../../../config.js';
import type { PageLanguage, PageWordKey } from '../page-words/index.js';
import type { ElementScript } from './element-script.js';

export type LinkPageBody =
  /**
   * The element on the visit's session; `afterPaid`: the Continue link, shown once it says the payment
   * succeeded (by the page's own script, `pageScript`).
   */
  | {
      kind: 'pay';
      token: string;
      backend: string;
      element: ElementScript;
      pageScript: ElementScript;
      afterPaid?: { href: string; text: PageWordKey };
    }
  /** A sentence, and perhaps a link (try again, continue to the merchant). */
  | { kind: 'say'; text: PageWordKey; link?: { href: string; text: PageWordKey } };

export interface LinkPageInput {
  language: PageLanguage;
  /** Where the browser reports a CSP violation (the backend's /v1/csp-reports). */
  cspReports: string;
  look: PaymentLinkPageConfig;
  /** What is sold; none on a page of no link (a 404 says nothing of any link). */
  sale?: { description: string; amount: string; currency: string };
  body: LinkPageBody;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Colours are hex (config.ts checks), so they go into CSS as they are. */
function styles(look: PaymentLinkPageConfig): string {
  const c = look.colors ?? {};
  const vars = [
    c.primary ? `--pay-color-primary:${c.primary}` : '',
    c.background ? `--pay-color-background:${c.background}` : '',
    c.text ? `--pay-color-text:${c.text}` : '',
  ].filter(Boolean);
  return [
    `body{margin:0;font:16px/1.5 system-ui,sans-serif;background:${c.background ?? '#fff'};color:${c.text ?? '#222'}}`,
    'main{max-width:28rem;margin:2rem auto;padding:0 1rem}',
    'header{display:flex;align-items:center;gap:.75rem;margin-bottom:1.5rem}',
    'header img{max-height:40px;max-width:160px}',
    'h1{font-size:1.25rem;margin:0}',
    '.description{margin:0}',
    '.amount{font-size:1.75rem;font-weight:600;margin:.25rem 0 1.5rem}',
    `a{color:${c.primary ?? '#1a56db'}}`,
    vars.length ? `pay-checkout{${vars.join(';')}}` : '',
  ].join('');
}

const hashOf = (text: string) =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The amount as the shopper's language writes it (display only: the session holds the money). */
function shownAmount(lang: string, amount: string, currency: string): string {
  try {
    return new Intl.NumberFormat(lang, { style: 'currency', currency }).format(Number(amount));
  } catch {
    return `${amount} ${currency}`;
  }
}

export function renderLinkPage(input: LinkPageInput): { html: string; csp: string } {
  const { lang, dir, words } = input.language;
  const css = styles(input.look);
  const name = input.look.merchantName;
  const logo = input.look.logoUrl;
  const header =
    name || logo
      ? `<header>${logo ? `<img src="${escapeHtml(logo)}" alt="">` : ''}${name ? `<h1>${escapeHtml(name)}</h1>` : ''}</header>`
      : '';
  const sale = input.sale
    ? `<p class="description">${escapeHtml(input.sale.description)}</p><p class="amount">${escapeHtml(shownAmount(lang, input.sale.amount, input.sale.currency))}</p>`
    : '';
  const body = input.body;
  const content =
    body.kind === 'pay'
      ? `<pay-checkout backend="${escapeHtml(body.backend)}" session="${escapeHtml(body.token)}" locale="${lang}"></pay-checkout>${body.afterPaid ? `<p><a id="continue" hidden href="${escapeHtml(body.afterPaid.href)}">${escapeHtml(words[body.afterPaid.text])}</a></p>` : ''}`
      : `<p role="status">${escapeHtml(words[body.text])}</p>${body.link ? `<p><a href="${escapeHtml(body.link.href)}">${escapeHtml(words[body.link.text])}</a></p>` : ''}`;
  const script =
    body.kind === 'pay'
      ? `<script type="module" src="${escapeHtml(body.element.src)}" integrity="${escapeHtml(body.element.integrity)}" crossorigin="anonymous"></script>${body.afterPaid ? `<script src="${escapeHtml(body.pageScript.src)}" integrity="${escapeHtml(body.pageScript.integrity)}" defer></script>` : ''}`
      : '';
  const title = name ? `${name} · ${words.pageTitle}` : words.pageTitle;
  const html = `<!doctype html>
<html lang="${lang}" dir="${dir}"><head><meta charset="utf-8"><meta name="robots" content="noindex">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>${css}</style></head>
<body><main>${header}${sale}${content}</main>${script}</body></html>`;
  const scriptOrigin = body.kind === 'pay' ? new URL(body.element.src).origin : null;
  const csp = [
    "default-src 'none'",
    // The element's origin, and this page's own script beside it.
    scriptOrigin ? `script-src ${scriptOrigin} 'self'` : '',
    // The element calls the backend (this origin) and fetches its languages beside its file.
    scriptOrigin ? `connect-src 'self' ${scriptOrigin}` : '',
    // 3-D Secure: the backend's launcher page, in the element's dialog.
    body.kind === 'pay' ? "frame-src 'self'" : '',
    logo ? `img-src ${new URL(logo).origin}` : '',
    `style-src ${hashOf(css)}`,
    // The challenge dialog sizes the bank's frame by a style attribute.
    body.kind === 'pay' ? "style-src-attr 'unsafe-inline'" : '',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
    `report-uri ${input.cspReports}`,
    'report-to csp',
  ]
    .filter(Boolean)
    .join('; ');
  return { html, csp };
}
