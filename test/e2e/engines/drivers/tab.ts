/**
 * What the engine matrix asks of a browser, whatever drives it: puppeteer-core (Chromium over CDP,
 * Firefox over WebDriver BiDi) or our WebDriver classic client (WebKitGTK). The journeys are
 * written once against these two interfaces.
 */
import { scaled } from '../../../support/time-scale.js';

/** One step to an element: a CSS selector, inside the open shadow root of `host` when given. */
export interface Hop {
  host?: string;
  css: string;
}

/** An element, inside the frames `frames` (each an iframe element, outermost first). */
export interface Target {
  frames?: Hop[];
  el: Hop;
}

/** A page script: the source of a function expression, called in the page with one JSON arg. */
export type PageScript = string;

/** One shopper's tab: cookies and storage of its own, nothing shared with the tab before it. */
export interface Tab {
  goto(url: string): Promise<void>;
  url(): Promise<string>;
  /** Runs `script(arg)` in the top-level document; its result (awaited) comes back as JSON. */
  run<R>(script: PageScript, arg?: unknown): Promise<R>;
  /**
   * Until `script(arg)` returns something truthy in the top-level document, whatever page is
   * there meanwhile (it may navigate): that value. Fails after `timeoutMs` saying `what`.
   */
  waitFor<R>(script: PageScript, arg: unknown, what: string, timeoutMs?: number): Promise<R>;
  /** Clicks the element once it is there and enabled, then types `text` key by key. */
  type(target: Target, text: string): Promise<void>;
  /** Clicks the element once it is there and enabled. */
  click(target: Target): Promise<void>;
  /**
   * The browser's Back button. Returns once pressed: what follows (a page from the back/forward
   * cache or loaded afresh) is for the caller to wait for; Firefox never reports the first.
   */
  back(): Promise<void>;
  /** A PNG of the viewport, for a failed test's artefacts. */
  screenshot(): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** Light, dark (prefers-color-scheme), or a forced-colors (high contrast) mode. */
export type Scheme = 'light' | 'dark' | 'forced';

export interface Engine {
  name: string;
  /** The browser's own version string, for the report. */
  version: string;
  /** How the engine is set up as a shopper's browser, for the report. */
  setup: string;
  /**
   * Back to the shop restores it from the back/forward cache, as shoppers' Firefox and Chromium
   * do: the Back journey checks it took that path. Unset where either may happen (MiniBrowser
   * loads the page afresh).
   */
  backForwardCache?: true;
  /** The schemes this engine can show, each with how; the others with why not. */
  schemes: Record<Scheme, { how: string } | { unsupported: string }>;
  newTab(scheme?: Scheme): Promise<Tab>;
  /** What went wrong with the driver and was worked around since last asked, for the report. */
  takeNotes?(): string[];
  close(): Promise<void>;
}

export const DEFAULT_WAIT_MS = scaled(30_000);

/**
 * How often a wait asks the page again. Each ask is one short synchronous script: a script still
 * running when the page navigates is never answered by some drivers (WebKitWebDriver holds the
 * command; Firefox freezes it with the page in its back/forward cache), so none waits in the page.
 */
const POLL_MS = 100;

/** `script(arg)` as one expression, for drivers that run expressions. */
export const callScript = (script: PageScript, arg: unknown) =>
  `(${script})(${JSON.stringify(arg ?? null)})`;

/**
 * Asks `once` (one look at the page) until it answers something truthy, for at most `timeoutMs`.
 * An error (the page was between documents) is asked again, not thrown, unless it is the last
 * word before the deadline.
 */
export async function pollUntil<R>(
  once: () => Promise<R | null>,
  what: string,
  timeoutMs: number,
): Promise<R> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await once();
      if (value) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const why = lastError ? ` (last error: ${String(lastError).slice(0, 300)})` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${why}`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The page's check for a hop: the element is there, rendered and not disabled. */
export const READY_ELEMENT: PageScript = `(hop) => {
  const root = hop.host ? document.querySelector(hop.host)?.shadowRoot : document;
  const el = root?.querySelector(hop.css);
  return Boolean(el && !el.matches(':disabled') && el.getClientRects().length > 0);
}`;

export function describeTarget(target: Target): string {
  const hop = (h: Hop) => (h.host ? `${h.host} >>> ${h.css}` : h.css);
  return [...(target.frames ?? []).map((f) => `frame ${hop(f)}`), hop(target.el)].join(' / ');
}
