/**
 * WCAG 2.2 AA of <pay-checkout> and its 3-D Secure dialog, in Chromium (docs/accessibility.md):
 * axe-core finds nothing at any impact, light and dark, on a light and on a dark page; right to
 * left mirrors; the form reflows at 320 px and at 200 % zoom; every target is 24 px or more; focus
 * is visible and never hidden; the whole payment, 3-D Secure included, works by keyboard alone;
 * steps and errors are spoken once, politely. Forced colors cannot be emulated here (the
 * launcher's emulateMedia has no forced-colors): test/e2e/demo-phone.test.ts checks them.
 */
import { expect } from '@open-wc/testing';
import { emulateMedia, sendKeys, sendMouse, setViewport } from '@web/test-runner-commands';
import 'axe-core';
import type { NextAction } from '../../contract/api-types.js';
import { FALLBACK_AFTER_MS } from '../../widget/src/three-ds/flow.js';
import {
  FakeBackend,
  finalApproved,
  ORDER_ID,
  order,
  sessionView,
} from './support/fake-backend.js';
import { flush } from './support/fake-clock.js';
import { b64url, fakeLaunch, pageIn, waitUntil } from './support/frames.js';
import { BACKEND, fillCard, type Mounted, mount, payButton, typeInto } from './support/mount.js';

// axe-core is a UMD script: imported for its side effect, it sets window.axe.
const axe = (globalThis as unknown as { axe: typeof import('axe-core') }).axe;

/** Every axe violation, at any impact, as "rule (impact): targets" (empty when clean). */
async function violations(context: Element, iframes = true): Promise<string[]> {
  const res = await axe.run(context, { resultTypes: ['violations'], iframes });
  return res.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`,
  );
}

const returnUrl = `${BACKEND}/return/challenge-complete/${ORDER_ID}`;
const CREQ = b64url(
  JSON.stringify({ messageType: 'CReq', messageVersion: '2.2.0', challengeWindowSize: '02' }),
);
/** A 3DS 2 challenge in the fake ACS (as element-3ds.test.ts builds it). */
function challenge(attemptsLeft = 0): NextAction {
  const acsUrl = `${location.origin}/fake-acs/challenge?return=${encodeURIComponent(returnUrl)}`;
  return {
    action: 'challenge',
    order: order({ attemptsLeft }),
    acsUrl,
    creq: CREQ,
    threeDSSessionData: 'c2Vzcy1kYXRhLTE',
    challengeWindowSize: '02',
    launchUrl: fakeLaunch(acsUrl, { creq: CREQ, threeDSSessionData: 'c2Vzcy1kYXRhLTE' }),
  };
}
/** A long poll the backend holds (nothing new yet); also a /pay that never answers. */
const HELD = () => new Promise<never>(() => {});

/** The challenge dialog, open: the card paid with a held long poll beside it. */
async function openChallenge(attrs: Record<string, string> = {}, attemptsLeft = 0) {
  m = await mount({ attrs });
  m.backend.on('POST /widget/pay', { json: challenge(attemptsLeft) });
  m.backend.on('GET /widget/next', HELD);
  await fillCard(m);
  payButton(m).click();
  await m.until('pay-challenge');
  await m.el.updateComplete;
  return m.$<HTMLDialogElement>('dialog');
}

/** The part of the page a box covers that the viewport does not show (0 when it fits). */
function outside(r: DOMRect): number {
  return Math.max(0, -r.left, r.right - innerWidth);
}

/** Every element of the shadow root that a pointer or a key can operate. */
function targets(root: ShadowRoot): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>('button, input, a[href], [tabindex="0"]')].filter(
    (e) => e.getClientRects().length > 0,
  );
}

/** The focused element inside the element's shadow root. */
const focused = (mm: Mounted) => mm.root.activeElement as HTMLElement | null;

/** Whether `el` is what a pointer at its centre reaches (nothing is on top of it). */
function onTop(root: ShadowRoot, el: Element): boolean {
  const r = el.getBoundingClientRect();
  const hit = root.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !!hit && (hit === el || el.contains(hit));
}

let m: Mounted | undefined;
afterEach(async () => {
  sessionStorage.clear();
  m?.stop();
  m?.el.remove();
  m = undefined;
  document.body.removeAttribute('style');
  await emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
  await setViewport({ width: 800, height: 600 });
});

describe('axe-core finds nothing, at any impact', () => {
  // The element follows the system's dark mode; the page around it may or may not.
  const contexts = [
    { name: 'light system, light page', scheme: 'light', page: '' },
    { name: 'dark system, dark page', scheme: 'dark', page: 'background:#101217;color:#e8eaf0' },
    // A merchant page that knows no dark mode: the card turns dark, the status line outside it
    // keeps the page's colours.
    { name: 'dark system, light page', scheme: 'dark', page: 'background:#fff;color:#1d2330' },
  ];
  for (const c of contexts) {
    it(`${c.name}: the form, its errors, a payment under way, the result with Try again`, async () => {
      await emulateMedia({ colorScheme: c.scheme as 'light' | 'dark' });
      document.body.setAttribute('style', c.page);
      m = await mount();
      expect(await violations(m.el), 'empty form').to.deep.equal([]);
      m.el.submit();
      await m.until('pay-error');
      await m.el.updateComplete;
      expect(await violations(m.el), 'errors').to.deep.equal([]);
      // Under way: the spinner and the visible status line, on the page's background.
      m.backend.on('POST /widget/pay', HELD);
      await fillCard(m);
      payButton(m).click();
      await m.backend.waitFor('POST /widget/pay');
      await m.el.updateComplete;
      const status = m.$('[role="status"]');
      expect(status.textContent).to.equal('Sending the payment…');
      expect(status.classList.contains('sr-only')).to.equal(false);
      expect(await violations(m.el), 'paying').to.deep.equal([]);
      m.stop();
      m.el.remove();
      // A network failure ends on the result panel with Try again.
      const backend = new FakeBackend().on('POST /widget/pay', { networkError: true });
      m = await mount({ backend });
      await fillCard(m);
      payButton(m).click();
      await m.until('pay-error');
      await m.el.updateComplete;
      expect(m.$('[part="result"] button').textContent).to.equal('Try again');
      expect(await violations(m.el), 'result').to.deep.equal([]);
    });
  }

  it('in Arabic (right to left) and German, with errors', async () => {
    for (const locale of ['ar', 'de']) {
      m?.stop();
      m?.el.remove();
      m = await mount({ attrs: { locale } });
      expect(await violations(m.el), locale).to.deep.equal([]);
      m.el.submit();
      await m.until('pay-error');
      await m.el.updateComplete;
      expect(await violations(m.el), `${locale}, errors`).to.deep.equal([]);
    }
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`the challenge dialog, ${scheme}: open, asking before cancelling, with its fallback link`, async () => {
      await emulateMedia({ colorScheme: scheme });
      const dialog = await openChallenge();
      // The bank's page inside the frame is the bank's (docs/accessibility.md): not ours to test.
      expect(await violations(m!.el, false), 'open').to.deep.equal([]);
      dialog.querySelector<HTMLButtonElement>('.close')!.click();
      await m!.el.updateComplete;
      await m!.clock.tick(FALLBACK_AFTER_MS);
      await m!.el.updateComplete;
      expect(dialog.querySelector('.keep')).to.not.equal(null);
      expect(dialog.querySelector('.fallback')).to.not.equal(null);
      expect(await violations(m!.el, false), 'confirming').to.deep.equal([]);
    });
  }
});

describe('right to left', () => {
  /** The number field: its input, its label and its badge, with a Visa number typed. */
  async function numberField(mm: Mounted) {
    typeInto(mm.input('number'), '4242 4242 4242 4242');
    await mm.el.updateComplete;
    const input = mm.input('number');
    const badge = mm.$('[part="brand"]');
    expect(badge.textContent).to.equal('Visa');
    const label = document.createRange();
    label.selectNodeContents(mm.$('label[for="in-number"]'));
    return {
      input,
      i: input.getBoundingClientRect(),
      b: badge.getBoundingClientRect(),
      l: label.getBoundingClientRect(),
    };
  }

  it('Arabic mirrors: labels and errors on the right, the badge at the left; the digits stay left to right and right aligned', async () => {
    m = await mount({ attrs: { locale: 'ar' } });
    expect(m.$('.root').getAttribute('dir')).to.equal('rtl');
    const { input, i, b, l } = await numberField(m);
    const style = getComputedStyle(input);
    expect(style.direction).to.equal('ltr');
    expect(style.textAlign).to.equal('right');
    // The badge at the inline end (the left) of the label line, over the field, not in it.
    expect(b.left - i.left).to.be.within(-0.5, 0.5);
    expect(i.top - b.bottom).to.be.within(3.5, 4.5);
    expect(b.right).to.be.below(l.left);
    expect([style.paddingLeft, style.paddingRight]).to.deep.equal(['12px', '12px']);
    // Labels, hints and errors start at the right edge of their field.
    m.el.submit();
    await m.until('pay-error');
    await m.el.updateComplete;
    for (const sel of ['label[for="in-expiry"]', '#hint-expiry', '#err-cvc', '#err-name']) {
      const el = m.$(sel);
      const range = document.createRange();
      range.selectNodeContents(el);
      const field = el.closest('.field')!.getBoundingClientRect();
      expect(field.right - range.getBoundingClientRect().right, sel).to.be.below(1);
    }
    // The expiry (the first of the pair) is the right one.
    const expiry = m.$('[part~="field-expiry"]').getBoundingClientRect();
    const cvc = m.$('[part~="field-cvc"]').getBoundingClientRect();
    expect(expiry.left).to.be.greaterThan(cvc.right);
  });

  it('left to right: the badge at the right end of the label line, the text at the left', async () => {
    m = await mount();
    const { input, i, b, l } = await numberField(m);
    const style = getComputedStyle(input);
    expect(style.textAlign).to.equal('start');
    expect(i.right - b.right).to.be.within(-0.5, 0.5);
    expect(i.top - b.bottom).to.be.within(3.5, 4.5);
    expect(b.left).to.be.above(l.right);
  });

  it("a page written right to left mirrors an English element too (the page's dir wins), also once moved there", async () => {
    const page = document.createElement('div');
    page.dir = 'rtl';
    document.body.append(page);
    try {
      m = await mount();
      page.append(m.el);
      await m.el.updateComplete;
      const { input, i, b } = await numberField(m);
      expect(getComputedStyle(input).textAlign).to.equal('right');
      expect(b.left - i.left).to.be.within(-0.5, 0.5);
    } finally {
      m?.el.remove();
      page.remove();
    }
  });

  it('the dialog mirrors: its title on the right, ✕ at the left', async () => {
    const dialog = await openChallenge({ locale: 'ar' });
    const title = dialog.querySelector('h2')!.getBoundingClientRect();
    const close = dialog.querySelector('.close')!.getBoundingClientRect();
    expect(close.right).to.be.below(title.left);
    const d = dialog.getBoundingClientRect();
    expect(close.left - d.left).to.be.within(8, 14);
  });
});

describe('reflow: 320 px wide, and 200 % zoom', () => {
  /** Nothing of the element scrolls sideways nor leaves the viewport. */
  function fits(mm: Mounted): void {
    expect(document.documentElement.scrollWidth).to.be.at.most(innerWidth);
    for (const el of mm.root.querySelectorAll<HTMLElement>('*')) {
      if (el.getClientRects().length === 0 || el.closest('.sr-only, .method-host')) continue;
      const what = `${el.localName}.${el.className}`;
      expect(outside(el.getBoundingClientRect()), what).to.equal(0);
      if (getComputedStyle(el).overflowX !== 'visible')
        expect(el.scrollWidth, what).to.be.at.most(el.clientWidth);
    }
  }

  it("at 320 px every brand's number fits its field whole, its badge beside the label", async () => {
    await setViewport({ width: 320, height: 640 });
    m = await mount();
    const numbers = [
      '4242424242424242',
      '5555555555554444',
      '378282246310005',
      '30569309025904',
      '6011111111111117',
      '6200000000000005',
      '3530111333300000',
      '2200000000000004',
    ];
    for (const n of numbers) {
      typeInto(m.input('number'), n);
      await m.el.updateComplete;
      const input = m.input('number');
      const badge = m.$('[part="brand"]');
      expect(input.scrollWidth, `${badge.textContent} ${input.value}`).to.be.at.most(
        input.clientWidth,
      );
      const label = document.createRange();
      label.selectNodeContents(m.$('label[for="in-number"]'));
      expect(badge.getBoundingClientRect().left, badge.textContent!).to.be.above(
        label.getBoundingClientRect().right,
      );
      fits(m);
    }
  });

  for (const locale of ['en', 'de', 'ar']) {
    it(`at 320 px (${locale}) the form fits, expiry and code one under the other, errors shown`, async () => {
      await setViewport({ width: 320, height: 640 });
      m = await mount({ attrs: { locale } });
      fits(m);
      m.el.submit();
      await m.until('pay-error');
      await m.el.updateComplete;
      fits(m);
      const expiry = m.$('[part~="field-expiry"]').getBoundingClientRect();
      const cvc = m.$('[part~="field-cvc"]').getBoundingClientRect();
      expect(cvc.top).to.be.at.least(expiry.bottom);
    });
  }

  it('at 200 % zoom (1280 x 900 shows 640 x 450): expiry and code side by side, nothing cut', async () => {
    await setViewport({ width: 640, height: 450 });
    m = await mount();
    fits(m);
    const expiry = m.$('[part~="field-expiry"]').getBoundingClientRect();
    const cvc = m.$('[part~="field-cvc"]').getBoundingClientRect();
    expect(cvc.top).to.equal(expiry.top);
    expect(cvc.left).to.be.at.least(expiry.right);
  });

  it('the challenge dialog at 320 px: full screen, its ✕ and frame inside, nothing sideways', async () => {
    await setViewport({ width: 320, height: 640 });
    const dialog = await openChallenge();
    expect(dialog.classList.contains('full')).to.equal(true);
    fits(m!);
    const close = dialog.querySelector('.close')!.getBoundingClientRect();
    expect(close.bottom).to.be.at.most(innerHeight);
    expect(dialog.scrollWidth).to.be.at.most(dialog.clientWidth);
  });

  it('the challenge dialog at 320 px with a merchant-set 500 x 600 window: the frame shrinks to fit', async () => {
    await setViewport({ width: 320, height: 640 });
    const dialog = await openChallenge({ 'challenge-window-size': '03' });
    fits(m!);
    expect(dialog.getBoundingClientRect().width).to.be.at.most(320);
  });
});

describe('targets are 24 x 24 CSS px or more (2.5.8)', () => {
  function allBigEnough(mm: Mounted, where: string): number {
    const found = targets(mm.root);
    for (const t of found) {
      const r = t.getBoundingClientRect();
      const what = `${where}: ${t.localName}.${t.className} "${t.textContent?.trim()}"`;
      expect(r.width, what).to.be.at.least(24);
      expect(r.height, what).to.be.at.least(24);
    }
    return found.length;
  }

  it('the form, the result with Try again, at 320 px and at 800 px', async () => {
    for (const width of [320, 800]) {
      await setViewport({ width, height: 640 });
      m?.stop();
      m?.el.remove();
      const backend = new FakeBackend().on('POST /widget/pay', { networkError: true });
      m = await mount({ backend });
      expect(allBigEnough(m, 'form')).to.equal(5);
      await fillCard(m);
      payButton(m).click();
      await m.until('pay-error');
      await m.el.updateComplete;
      expect(allBigEnough(m, 'result')).to.equal(1);
    }
  });

  it('the dialog: ✕, Keep confirming, Cancel payment and the "continue in this window" link', async () => {
    await setViewport({ width: 320, height: 640 });
    const dialog = await openChallenge();
    dialog.querySelector<HTMLButtonElement>('.close')!.click();
    await m!.clock.tick(FALLBACK_AFTER_MS);
    await m!.el.updateComplete;
    // ✕, Keep confirming, Cancel payment, the fallback; the form behind is inert and hidden.
    const inDialog = targets(m!.root).filter((t) => dialog.contains(t));
    expect(inDialog.map((t) => t.className)).to.deep.equal(['close', 'keep', 'stop', 'fallback']);
    allBigEnough(m!, 'dialog');
  });
});

describe('focus is visible and never hidden', () => {
  const ACCENT = 'rgb(48, 86, 211)';
  const ACCENT_DARK = 'rgb(123, 156, 255)';

  for (const scheme of ['light', 'dark'] as const) {
    it(`${scheme}: Tab reaches every field and the Pay button, each with a 2 px ring in the focus colour, on top`, async () => {
      await emulateMedia({ colorScheme: scheme });
      m = await mount();
      (document.activeElement as HTMLElement | null)?.blur();
      const seen: string[] = [];
      for (let i = 0; i < 5; i++) {
        await sendKeys({ press: 'Tab' });
        const el = focused(m)!;
        expect(el, `Tab ${i + 1}`).to.not.equal(null);
        seen.push(el.getAttribute('name') ?? el.getAttribute('type') ?? el.localName);
        expect(el.matches(':focus-visible')).to.equal(true);
        const s = getComputedStyle(el);
        expect([s.outlineStyle, s.outlineWidth, s.outlineOffset]).to.deep.equal([
          'solid',
          '2px',
          '2px',
        ]);
        expect(s.outlineColor).to.equal(scheme === 'dark' ? ACCENT_DARK : ACCENT);
        expect(onTop(m.root, el), seen.at(-1)).to.equal(true);
        expect(outside(el.getBoundingClientRect())).to.equal(0);
      }
      expect(seen).to.deep.equal(['number', 'expiry', 'cvc', 'name', 'submit']);
    });
  }

  it('the merchant sets the ring: --pay-color-focus', async () => {
    m = await mount();
    m.el.style.setProperty('--pay-color-focus', '#d00000');
    (document.activeElement as HTMLElement | null)?.blur();
    await sendKeys({ press: 'Tab' });
    expect(getComputedStyle(focused(m)!).outlineColor).to.equal('rgb(208, 0, 0)');
  });

  it('while the dialog is open, the form behind it cannot take focus (nothing hides the focus)', async () => {
    const dialog = await openChallenge();
    payButton(m!).focus();
    m!.input('name').focus();
    expect(dialog.contains(focused(m!))).to.equal(true);
    expect(dialog.matches(':modal')).to.equal(true);
    const close = dialog.querySelector<HTMLButtonElement>('.close')!;
    close.focus();
    await sendKeys({ down: 'Shift' });
    await sendKeys({ press: 'Tab' });
    await sendKeys({ up: 'Shift' });
    await sendKeys({ press: 'Tab' });
    expect(focused(m!)).to.equal(close);
    expect(close.matches(':focus-visible')).to.equal(true);
    expect(getComputedStyle(close).outlineStyle).to.equal('solid');
    expect(onTop(m!.root, close)).to.equal(true);
    // Shift+Tab from the dialog's first control left the page for the browser's own controls and
    // Tab came back: a click in the page has the browser give it focus again (the next test
    // file's page would otherwise start without it, and :focus match nothing there).
    const title = dialog.querySelector('h2')!.getBoundingClientRect();
    await sendMouse({
      type: 'click',
      position: [Math.round(title.left + 4), Math.round(title.top + 4)],
    });
  });
});

describe('by keyboard alone, 3-D Secure included', () => {
  it('types the card, pays with Enter, moves into the dialog, Escape asks, cancels, and focus comes back to the form', async () => {
    m = await mount();
    m.backend.on('POST /widget/pay', { json: challenge(2) });
    m.backend.on('GET /widget/next', HELD);
    // The session takes more attempts: the cancel gives the form back.
    m.backend.on('POST /widget/cancel', {
      json: { action: 'final', order: order({ attemptsLeft: 1 }) },
    });
    (document.activeElement as HTMLElement | null)?.blur();
    for (const text of ['4242424242424242', '1230', '123', 'Ada Lovelace']) {
      await sendKeys({ press: 'Tab' });
      await sendKeys({ type: text });
    }
    expect(m.input('number').value).to.equal('4242 4242 4242 4242');
    expect(m.input('expiry').value).to.equal('12/30');
    await sendKeys({ press: 'Enter' });
    await m.until('pay-challenge');
    await m.el.updateComplete;
    const dialog = m.$<HTMLDialogElement>('dialog');
    // Focus moved into the dialog, on its title (not on the destructive ✕).
    expect(focused(m)?.id).to.equal('dlg-title');
    await sendKeys({ press: 'Tab' });
    expect(focused(m)?.className).to.equal('close');
    // Escape asks first, on the safe choice.
    await sendKeys({ press: 'Escape' });
    await m.el.updateComplete;
    await flush();
    expect(dialog.open).to.equal(true);
    expect(focused(m)?.className).to.equal('keep');
    await sendKeys({ press: 'Tab' });
    expect(focused(m)?.className).to.equal('stop');
    await sendKeys({ press: 'Enter' });
    await m.until('pay-error');
    await waitUntil(() => focused(m!) === m!.input('number'), 'focus on the card number');
    expect(dialog.open).to.equal(false);
    expect(m.$('[part="notice"]').textContent).to.match(/^You cancelled the verification/);
    // No trap: Tab goes on through the form.
    await sendKeys({ press: 'Tab' });
    expect(focused(m)?.getAttribute('name')).to.equal('expiry');
  });

  it("in the bank's page Escape is the bank's (its frame keeps its keys): Shift+Tab reaches ✕, and Enter on it asks", async () => {
    const dialog = await openChallenge();
    const frame = m!.$<HTMLIFrameElement>('dialog iframe');
    await waitUntil(() => pageIn(frame, 'ACS challenge'), "the bank's page");
    await sendKeys({ press: 'Tab' });
    expect(focused(m!)?.className).to.equal('close');
    // Tab goes on into the bank's page (our launcher frame takes no stop of its own).
    await sendKeys({ press: 'Tab' });
    expect(focused(m!)).to.equal(frame);
    expect(pageIn(frame, 'ACS challenge')!.activeElement?.id).to.equal('go');
    // The key goes to the bank's document, not to our dialog: nothing is asked, the bank keeps focus.
    await sendKeys({ press: 'Escape' });
    await m!.el.updateComplete;
    await flush();
    expect(dialog.open).to.equal(true);
    expect(dialog.querySelector('.confirm')).to.equal(null);
    // What works instead (docs/widget.md): one Shift+Tab back to ✕, then Enter (or Escape) asks.
    await sendKeys({ down: 'Shift' });
    await sendKeys({ press: 'Tab' });
    await sendKeys({ up: 'Shift' });
    expect(focused(m!)?.className).to.equal('close');
    await sendKeys({ press: 'Enter' });
    await m!.el.updateComplete;
    await flush();
    expect(focused(m!)?.className).to.equal('keep');
  });

  it('Keep confirming by keyboard leaves focus in the dialog, on a control', async () => {
    const dialog = await openChallenge();
    await sendKeys({ press: 'Escape' });
    await m!.el.updateComplete;
    await flush();
    expect(focused(m!)?.className).to.equal('keep');
    await sendKeys({ press: 'Enter' });
    await m!.el.updateComplete;
    await flush();
    expect(dialog.querySelector('.keep')).to.equal(null);
    const now = focused(m!);
    expect(now !== null && dialog.contains(now), `focus on ${now?.localName}`).to.equal(true);
  });
});

describe('steps and errors are spoken once, politely', () => {
  /** Every text the live region took, in order. */
  function spoken(mm: Mounted): string[] {
    const region = mm.$('[role="status"]');
    const said: string[] = [];
    new MutationObserver(() => {
      const text = region.textContent ?? '';
      if (text && text !== said.at(-1)) said.push(text);
    }).observe(region, { childList: true, characterData: true, subtree: true });
    return said;
  }

  it('one polite live region and no other; a refused form, then a payment, each said once', async () => {
    m = await mount();
    const live = m.root.querySelectorAll('[aria-live], [role="status"], [role="alert"]');
    expect(live).to.have.length(1);
    expect(live[0]!.getAttribute('aria-live')).to.equal('polite');
    // The field errors are read with their fields (aria-describedby), not spoken on their own.
    expect(m.input('number').getAttribute('aria-describedby')).to.match(/\berr-number\b/);
    expect(m.$('#err-number').closest('[aria-live]')).to.equal(null);
    const said = spoken(m);
    m.el.submit();
    await m.until('pay-error');
    await m.el.updateComplete;
    await flush();
    m.backend.on('POST /widget/pay', { json: finalApproved() });
    await fillCard(m);
    payButton(m).click();
    await m.until('pay-success');
    await m.el.updateComplete;
    await flush();
    expect(said).to.deep.equal([
      'Please correct: Card number, Expiry date, Security code, and Name on card.',
      'Sending the payment…',
      'Payment approved. €10.42 paid with 424242******4242.',
    ]);
  });

  it('the dialog says why it opened, as its description', async () => {
    const dialog = await openChallenge();
    const described = m!.root.getElementById(dialog.getAttribute('aria-describedby')!);
    expect(described?.textContent).to.equal('Your bank asks you to confirm the payment.');
  });
});

describe('saved cards and the box to save a card', () => {
  const saved = (over: Record<string, unknown> = {}) =>
    new FakeBackend().on('GET /widget/session', {
      json: sessionView({
        saveCard: 'ask',
        savedCardCvc: 'required',
        savedCards: [
          {
            handle: 'h-1',
            brand: 'VISA',
            brandId: 'visa',
            last4: '4242',
            expMonth: '12',
            expYear: '2030',
            holder: '',
            expired: false,
          },
          {
            handle: 'h-2',
            brand: 'MASTERCARD',
            brandId: 'mastercard',
            last4: '4444',
            expMonth: '01',
            expYear: '2021',
            holder: '',
            expired: true,
          },
        ],
        ...over,
      }),
    });

  it('axe finds nothing, left to right and right to left, the list and the form for another card', async () => {
    for (const locale of ['en', 'ar']) {
      m?.stop();
      m?.el.remove();
      m = await mount({ backend: saved(), attrs: { locale } });
      expect(await violations(m.el), `${locale}: the list`).to.deep.equal([]);
      m.root.querySelectorAll<HTMLInputElement>('input[name="saved"]')[2]!.click();
      await m.el.updateComplete;
      expect(await violations(m.el), `${locale}: another card`).to.deep.equal([]);
    }
  });

  it('each choice and the box are 24 x 24 px targets, labelled by their words', async () => {
    await setViewport({ width: 320, height: 640 });
    m?.stop();
    m?.el.remove();
    m = await mount({ backend: saved() });
    m.root.querySelectorAll<HTMLInputElement>('input[name="saved"]')[2]!.click();
    await m.el.updateComplete;
    const boxes = [
      ...m.root.querySelectorAll<HTMLInputElement>('input[type="radio"], input[type="checkbox"]'),
    ];
    expect(boxes).to.have.length(4);
    for (const box of boxes) {
      const r = box.getBoundingClientRect();
      expect(r.width).to.be.at.least(24);
      expect(r.height).to.be.at.least(24);
      expect(box.closest('label')!.textContent!.trim()).to.not.equal('');
    }
    expect(m.el.getBoundingClientRect().right).to.be.at.most(320);
  });
});
