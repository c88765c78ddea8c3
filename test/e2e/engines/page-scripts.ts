/**
 * What the journeys read in the page, as page scripts: function source text run by whichever
 * driver (tab.ts). Text rather than functions: tsx compiles test files with esbuild's keepNames,
 * which wraps named inner functions in a `__name` helper the page does not have.
 */
import type { PageScript } from './drivers/tab.js';

/** The element as a shopper sees it: the form or the result, the notice, the dialog. */
export interface ElementState {
  url: string;
  result: { kind: string; title: string; detail: string } | null;
  notice: string | null;
  /** The card form is there, its number field enabled and the Pay button not busy. */
  ready: boolean;
  numberValue: string | null;
  nameValue: string | null;
  pay: string;
  dialogOpen: boolean;
  /** `pageshow` events of this document, `persisted` each (shop.ts records them). */
  pageShows: boolean[];
}

const ELEMENT_STATE = `() => {
  const root = document.querySelector('pay-checkout')?.shadowRoot;
  if (!root) return null;
  const text = (el) => (el?.textContent ?? '').replace(/\\s+/g, ' ').trim();
  const result = root.querySelector('[part~="result"]');
  const number = root.querySelector('input[name="number"]');
  const name = root.querySelector('input[name="name"]');
  const pay = root.querySelector('button[type="submit"]');
  return {
    url: location.href,
    result: result
      ? { kind: result.dataset.kind ?? '', title: text(result.querySelector('h2')), detail: text(result.querySelector('p')) }
      : null,
    notice: text(root.querySelector('[part~="notice"]')) || null,
    ready: Boolean(number && !number.matches(':disabled') && pay && pay.getAttribute('aria-disabled') !== 'true'),
    numberValue: number ? number.value : null,
    nameValue: name ? name.value : null,
    pay: text(pay),
    dialogOpen: Boolean(root.querySelector('dialog[open]')),
    pageShows: window.pageShows ?? [],
  };
}`;

/** The element's state once `condition` (a JS expression over `s`, the state) holds. */
export function stateWhere(condition: string): PageScript {
  return `() => { const s = (${ELEMENT_STATE})(); return s && (${condition}) ? s : null; }`;
}

/** The element's state now (null before the element has rendered). */
export const STATE: PageScript = ELEMENT_STATE;

/** The widget events the page recorded, oldest first. */
export const EVENTS: PageScript = '() => window.payEvents ?? []';

/**
 * How the element lays its content out: the direction and language its wrapper declares, the
 * direction the form is laid out in (computed), and the Pay button's text.
 */
export const LAYOUT: PageScript = `() => {
  const root = document.querySelector('pay-checkout')?.shadowRoot;
  const form = root?.querySelector('form');
  if (!form) return null;
  const declared = root.querySelector('[dir]:not(input)');
  return {
    wrapperDir: declared ? declared.getAttribute('dir') : null,
    wrapperLang: root.querySelector('[lang]')?.getAttribute('lang') ?? null,
    formDirection: getComputedStyle(form).direction,
    pay: (root.querySelector('button[type="submit"]')?.textContent ?? '').replace(/\\s+/g, ' ').trim(),
  };
}`;

/**
 * The masked card number in the result panel (`400000******0002`, `**** 0002`) as it reads in the
 * text and as it stands on screen, left to right: each character's box from a Range, sorted by its
 * left edge. In right-to-left text an isolate keeps them the same (the review saw the digit groups
 * swapped without one). Null before the result shows a card.
 */
export const CARD_ON_SCREEN: PageScript = `() => {
  const p = document.querySelector('pay-checkout')?.shadowRoot?.querySelector('[part~="result"] p');
  // A text node (Lit's marker comments hold digits too).
  const node = p && [...p.childNodes].find((n) => n.nodeType === 3 && /[*\\d]{4}/.test(n.data));
  const found = node && /[0-9][0-9*]*\\*[0-9*]*[0-9]|\\*+ [0-9]+/.exec(node.textContent);
  if (!found) return null;
  const range = document.createRange();
  const boxes = [...found[0]].map((char, i) => {
    range.setStart(node, found.index + i);
    range.setEnd(node, found.index + i + 1);
    return { char, left: range.getBoundingClientRect().left };
  });
  boxes.sort((a, b) => a.left - b.left);
  return { text: found[0], onScreen: boxes.map((b) => b.char).join('') };
}`;

/** Which colour media queries the page matches (a scheme must be in effect to be tested). */
export const MEDIA: PageScript = `() => ({
  dark: matchMedia('(prefers-color-scheme: dark)').matches,
  forced: matchMedia('(forced-colors: active)').matches,
})`;

/** The bank's page at the top level: its URL once its code field is there. */
export const BANK_PAGE: PageScript = `(origin) =>
  location.origin === origin && document.querySelector('#otp') ? location.href : null`;

/**
 * Why the page was not restored from the back/forward cache, where the browser says
 * (`notRestoredReasons`, Chromium only): null when it was, or when the browser does not say.
 */
export const NOT_RESTORED: PageScript = `() => {
  const entry = performance.getEntriesByType('navigation')[0];
  const reasons = entry && entry.notRestoredReasons;
  if (!reasons) return null;
  const all = [];
  const walk = (r) => {
    for (const x of r.reasons ?? []) all.push(x.reason ?? String(x));
    for (const child of r.children ?? []) walk(child);
  };
  walk(reasons);
  return all;
}`;
