/** Mounts a `<pay-checkout>` wired to a FakeBackend and FakeClock, recording every pay-* event. */
import { fixture, html } from '@open-wc/testing';
import type { PayCheckoutElement } from '../../../widget/src/pay-checkout.js';
import '../../../widget/src/pay-checkout.js';
import { PAY_EVENTS } from '../../../widget/src/events.js';
import { BASE_PATH, FakeBackend, sessionView } from './fake-backend.js';
import { FakeClock, flush } from './fake-clock.js';

export interface Recorded {
  type: string;
  detail: unknown;
  bubbles: boolean;
  composed: boolean;
}

export interface Mounted {
  el: PayCheckoutElement;
  backend: FakeBackend;
  clock: FakeClock;
  events: Recorded[];
  navigations: string[];
  /** Events of one type, details only. */
  of(type: string): unknown[];
  /** Resolves when an event of `type` has been seen (count times). */
  until(type: string, count?: number): Promise<void>;
  root: ShadowRoot;
  $<T extends Element = HTMLElement>(sel: string): T;
  input(name: string): HTMLInputElement;
  stop(): void;
}

export const BACKEND = `${location.origin}${BASE_PATH}`;

export interface MountOptions {
  attrs?: Record<string, string>;
  backend?: FakeBackend;
  /** Do not add the default `GET /widget/session` answer (state open) nor wait for pay-ready. */
  noSession?: boolean;
  /** Wait for pay-ready. */
  ready?: boolean;
}

export async function mount(opts: MountOptions = {}): Promise<Mounted> {
  const backend = opts.backend ?? new FakeBackend();
  if (!opts.noSession && !backend.has('GET /widget/session'))
    backend.on('GET /widget/session', { json: sessionView() });
  const clock = new FakeClock();
  const events: Recorded[] = [];
  const waiters: (() => void)[] = [];
  const listener = (e: Event) => {
    events.push({
      type: e.type,
      detail: (e as CustomEvent).detail,
      bubbles: e.bubbles,
      composed: e.composed,
    });
    for (const w of waiters.splice(0)) w();
  };
  // Listening on document proves the events bubble out of the shadow root (composed).
  for (const n of PAY_EVENTS) document.addEventListener(n, listener);
  const navigations: string[] = [];
  const el = document.createElement('pay-checkout');
  el.env = {
    fetch: backend.fetch,
    setTimeout: clock.setTimeout,
    clearTimeout: clock.clearTimeout,
    now: clock.now,
    navigate: (url) => navigations.push(url),
  };
  for (const [k, v] of Object.entries({
    backend: BACKEND,
    session: 'tok-123',
    locale: 'en',
    ...opts.attrs,
  }))
    el.setAttribute(k, v);
  await fixture(html`<div></div>`).then((host) => host.append(el));
  await el.updateComplete;
  const count = (type: string) => events.filter((e) => e.type === type).length;
  const m: Mounted = {
    el,
    backend,
    clock,
    events,
    navigations,
    of: (type) => events.filter((e) => e.type === type).map((e) => e.detail),
    until: (type, n = 1) =>
      new Promise((resolve) => {
        const check = () => (count(type) >= n ? resolve() : waiters.push(check));
        check();
      }),
    root: el.shadowRoot!,
    $: <T extends Element>(sel: string) => el.shadowRoot!.querySelector(sel) as T,
    input: (name) => el.shadowRoot!.querySelector(`input[name="${name}"]`) as HTMLInputElement,
    stop: () => {
      for (const n of PAY_EVENTS) document.removeEventListener(n, listener);
    },
  };
  if (opts.ready !== false && !opts.noSession) {
    await m.until('pay-ready');
    await el.updateComplete;
    await flush(1);
  }
  return m;
}

/** Types into an input as a user would (value + input event), without a real keyboard. */
export function typeInto(input: HTMLInputElement, value: string, inputType = 'insertText'): void {
  input.focus();
  input.value = value;
  input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType }));
}

export async function fillCard(
  m: Mounted,
  card: { number?: string; expiry?: string; cvc?: string; name?: string } = {},
): Promise<void> {
  typeInto(m.input('number'), card.number ?? '4242 4242 4242 4242');
  typeInto(m.input('expiry'), card.expiry ?? '12/30');
  typeInto(m.input('cvc'), card.cvc ?? '123');
  typeInto(m.input('name'), card.name ?? 'Ada Lovelace');
  m.input('name').blur();
  await m.el.updateComplete;
}

export function payButton(m: Mounted): HTMLButtonElement {
  return m.$<HTMLButtonElement>('button[type="submit"]');
}
