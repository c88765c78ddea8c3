/**
 * A Tab over a puppeteer-core page: Chromium (CDP) and Firefox (WebDriver BiDi) alike. Waits are
 * the shared polls of tab.ts, so each engine waits the same way whatever drives it.
 */
import type { ElementHandle, Frame, Page } from 'puppeteer-core';
import { scaled } from '../../../support/time-scale.js';
import {
  callScript,
  DEFAULT_WAIT_MS,
  describeTarget,
  type Hop,
  type PageScript,
  pollUntil,
  READY_ELEMENT,
  type Tab,
  type Target,
} from './tab.js';

const ELEMENT_OF: PageScript = `(hop) =>
  (hop.host ? document.querySelector(hop.host)?.shadowRoot : document)?.querySelector(hop.css)`;

/** How a click and keys reach an element: puppeteer's own (Chromium), or bidi-input.ts (Firefox). */
export interface Input {
  click(frame: Frame, handle: ElementHandle): Promise<void>;
  type(frame: Frame, handle: ElementHandle, text: string): Promise<void>;
}

export const PUPPETEER_INPUT: Input = {
  click: (_frame, handle) => handle.click(),
  type: (_frame, handle, text) => handle.type(text),
};

/**
 * Firefox keeps a page that navigated away in its back/forward cache, and a script evaluated
 * there as it left is frozen with it, never settled (puppeteer would wait for its protocol
 * timeout, 180 s). Such a script is given up when the tab's top-level page changes, or at the
 * latest after this long (no look at the page takes a tenth of it).
 */
const SCRIPT_MS = 5_000;

/** A promise that rejects the next time the page's top-level document changes. */
function nextNavigation(page: Page): Promise<never> {
  const left = new Promise<never>((_, reject) => {
    const onNavigated = (frame: Frame) => {
      if (frame !== page.mainFrame()) return;
      page.off('framenavigated', onNavigated);
      reject(new Error('the page navigated while a script ran'));
    };
    page.on('framenavigated', onNavigated);
  });
  left.catch(() => undefined);
  return left;
}

export class PuppeteerTab implements Tab {
  readonly page: Page;
  readonly #input: Input;
  readonly #closeAll: () => Promise<void>;
  /** Rejects when the page navigates next (nextNavigation); renewed each time it does. */
  #left: Promise<never>;

  /** `closeAll` ends the tab's browser context (its cookies and storage with it). */
  constructor(page: Page, input: Input, closeAll: () => Promise<void>) {
    this.page = page;
    this.#input = input;
    this.#closeAll = closeAll;
    this.#left = this.#watchNavigations();
    // A step's own limit comes from waitFor; this bounds puppeteer's own calls (navigation).
    page.setDefaultTimeout(scaled(45_000));
  }

  #watchNavigations(): Promise<never> {
    const left = nextNavigation(this.page);
    left.catch(() => {
      this.#left = this.#watchNavigations();
    });
    return left;
  }

  /** The script's answer, or an error once the page navigated or it took too long. */
  #answer<T>(promise: Promise<T>, what: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${what}: no answer in ${SCRIPT_MS} ms`)),
        SCRIPT_MS,
      );
    });
    return Promise.race([promise, this.#left, late]).finally(() => clearTimeout(timer));
  }

  async goto(url: string): Promise<void> {
    await this.page.goto(url);
  }

  async url(): Promise<string> {
    return this.page.url();
  }

  async run<R>(script: PageScript, arg?: unknown): Promise<R> {
    return (await this.#answer(this.page.evaluate(callScript(script, arg)), 'a page script')) as R;
  }

  async waitFor<R>(script: PageScript, arg: unknown, what: string, timeoutMs = DEFAULT_WAIT_MS) {
    return pollUntil<R>(
      async () =>
        (await this.#answer(this.page.evaluate(callScript(script, arg)), what)) as R | null,
      what,
      timeoutMs,
    );
  }

  /** Waits for `hop` in `frame`, then its handle. */
  async #element(frame: Frame, hop: Hop, what: string): Promise<ElementHandle<Element>> {
    await pollUntil(
      async () =>
        (await this.#answer(frame.evaluate(callScript(READY_ELEMENT, hop)), what)) as boolean,
      what,
      DEFAULT_WAIT_MS,
    );
    const handle = (await frame.evaluateHandle(callScript(ELEMENT_OF, hop))).asElement();
    if (!handle) throw new Error(`${what}: ${hop.css} went away`);
    return handle as ElementHandle<Element>;
  }

  async #resolve(target: Target): Promise<{ frame: Frame; handle: ElementHandle<Element> }> {
    const what = describeTarget(target);
    let frame = this.page.mainFrame();
    for (const hop of target.frames ?? []) {
      const iframe = await this.#element(frame, hop, what);
      const inner = await (iframe as ElementHandle<HTMLIFrameElement>).contentFrame();
      if (!inner) throw new Error(`${what}: ${hop.css} has no frame`);
      frame = inner;
    }
    return { frame, handle: await this.#element(frame, target.el, what) };
  }

  async type(target: Target, text: string): Promise<void> {
    const { frame, handle } = await this.#resolve(target);
    await this.#input.click(frame, handle);
    await this.#input.type(frame, handle, text);
  }

  async click(target: Target): Promise<void> {
    const { frame, handle } = await this.#resolve(target);
    await this.#input.click(frame, handle);
  }

  async back(): Promise<void> {
    // Not awaited: Firefox never resolves goBack() for a page restored from the back/forward
    // cache (the caller waits for what the page shows instead). A failure is the caller's to see
    // in what the page does not show; a closed page rejects it, which is no news.
    void this.page.goBack().catch(() => undefined);
  }

  async screenshot(): Promise<Uint8Array> {
    return this.page.screenshot();
  }

  async close(): Promise<void> {
    await this.#closeAll();
  }
}
