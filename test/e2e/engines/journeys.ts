/**
 * The shopper matrix: each journey written once against a Tab (drivers/tab.ts) and run in every
 * engine, on the matrix's own merchant page (shop.ts), another site than the backend and the bank.
 * A journey asserts what the element shows and what the merchant API says of the order.
 */
import assert from 'node:assert/strict';
import { scaled } from '../../support/time-scale.js';
import type { TestCard } from '../support/checkout-page.js';
import type { Stack } from '../support/stack.js';
import { type AxeRun, axe, formatViolations } from './a11y.js';
import type { Engine, PageScript, Scheme, Tab, Target } from './drivers/tab.js';
import {
  BANK_PAGE,
  CARD_ON_SCREEN,
  type ElementState,
  EVENTS,
  LAYOUT,
  MEDIA,
  NOT_RESTORED,
  STATE,
  stateWhere,
} from './page-scripts.js';
import type { CheckoutOptions, EngineShop } from './shop.js';

export interface Shopper {
  engine: Engine;
  tab: Tab;
  shop: EngineShop;
  stack: Stack;
  card(scenario: string): TestCard;
  /** A line in the test's output (what the engine did, for a person reading the run). */
  note(message: string): void;
}

/** How long the element may take to show the gateway's outcome: the journeys' 15 s, with room
 * for three engines and the rest of the suite sharing two cores. */
const OUTCOME_MS = scaled(30_000);

const field = (name: string): Target => ({
  el: { host: 'pay-checkout', css: `input[name="${name}"]` },
});
const PAY: Target = { el: { host: 'pay-checkout', css: 'button[type="submit"]' } };
/** The bank's page in the dialog: the dialog frames the backend's launcher, which frames the bank. */
const IN_DIALOG = [{ host: 'pay-checkout', css: 'dialog[open] iframe' }, { css: 'iframe' }];

export async function openCheckout(s: Shopper, options: CheckoutOptions = {}): Promise<string> {
  const { orderId, url } = await s.shop.checkout(options);
  await s.tab.goto(url);
  await formReady(s);
  return orderId;
}

function formReady(s: Shopper): Promise<ElementState> {
  return s.tab.waitFor(stateWhere('s.ready'), null, 'the card form, ready for a card');
}

/** Types the card as a shopper does, field by field; the name only when the form kept none. */
async function typeCard(s: Shopper, card: TestCard): Promise<void> {
  await s.tab.type(field('number'), card.pan);
  await s.tab.type(field('expiry'), `${card.expMonth}${card.expYear.slice(-2)}`);
  await s.tab.type(field('cvc'), card.cvv);
  const state = await s.tab.run<ElementState>(STATE);
  if (!state.nameValue) await s.tab.type(field('name'), 'Alex Shopper');
}

export async function pay(s: Shopper, scenario: string): Promise<void> {
  await typeCard(s, s.card(scenario));
  await s.tab.click(PAY);
}

/** What the element ends on: its result panel, or its notice over a form ready again. */
function outcome(s: Shopper): Promise<ElementState> {
  return s.tab.waitFor(
    stateWhere('s.result || (s.notice && s.ready)'),
    null,
    'the payment outcome (result panel, or notice with the form)',
    OUTCOME_MS,
  );
}

export async function expectApproved(s: Shopper, orderId: string): Promise<void> {
  const end = await outcome(s);
  assert.equal(end.result?.kind, 'approved', `the element shows ${JSON.stringify(end)}`);
  assert.equal(await orderStatus(s, orderId), 'approved');
}

async function order(s: Shopper, orderId: string) {
  const { status, body } = await s.stack.merchantApi('GET', `/v1/orders/${orderId}`);
  assert.equal(status, 200, JSON.stringify(body));
  return body as { status: string; attempts: { id: string; status: string; abandoned: boolean }[] };
}

async function orderStatus(s: Shopper, orderId: string): Promise<string> {
  return (await order(s, orderId)).status;
}

async function events(s: Shopper): Promise<{ type: string; detail: Record<string, unknown> }[]> {
  return s.tab.run(EVENTS);
}

async function answerInDialog(s: Shopper, code: string): Promise<void> {
  await s.tab.type({ frames: IN_DIALOG, el: { css: '#otp' } }, code);
  await s.tab.click({ frames: IN_DIALOG, el: { css: 'button[value="submit"]' } });
}

/** The challenge dialog's journey for a card: the bank's page in the frame, the code, approved. */
async function challengeInFrame(s: Shopper, scenario: string, version: string): Promise<void> {
  const orderId = await openCheckout(s, { challenge: 'iframe' });
  await pay(s, scenario);
  await s.tab.waitFor(stateWhere('s.dialogOpen'), null, 'the challenge dialog');
  await answerInDialog(s, s.card(scenario).otp ?? '');
  await expectApproved(s, orderId);
  const opened = (await events(s)).find(
    (e) => e.type === 'pay-challenge' && e.detail.phase === 'open',
  );
  assert.equal(opened?.detail.version, version, 'the challenge shown was the card’s');
}

/** Pays in redirect mode up to the bank's page, the whole tab on the bank's site. */
async function toBankPage(s: Shopper): Promise<string> {
  const orderId = await openCheckout(s, { challenge: 'redirect' });
  await pay(s, '3ds2-challenge');
  await s.tab.waitFor(BANK_PAGE, s.stack.sandboxUrl, 'the bank’s page at the top level');
  return orderId;
}

/** axe checked something of `what` inside the element's shadow root (else its silence is empty). */
function sawInside(run: AxeRun, what: string, where: string): void {
  assert.ok(
    run.inElement.some((selector) => selector.includes(what)),
    `axe did not reach ${what} inside the element in ${where}: ${JSON.stringify(run.inElement)}`,
  );
}

/** The element's chosen saved card and its security code field, ready (no card form then). */
const SAVED_CARD_READY: PageScript = `() => {
  const root = document.querySelector('pay-checkout')?.shadowRoot;
  const chosen = root?.querySelector('input[name="saved"]:checked');
  const cvc = root?.querySelector('input[name="cvc"]');
  return chosen && cvc && !cvc.matches(':disabled') && !root.querySelector('input[name="number"]')
    ? chosen.closest('label').textContent.replace(/\\s+/g, ' ').trim()
    : null;
}`;

/** The order's card reference once the backend made it (after the approval, in the background). */
async function cardRefOf(s: Shopper, orderId: string): Promise<{ id: string; last4: string }> {
  for (const end = Date.now() + scaled(10_000); Date.now() < end; ) {
    const { body } = await s.stack.merchantApi('GET', `/v1/orders/${orderId}`);
    const ref = (body as { cardRef?: { id: string; last4: string } | null }).cardRef;
    if (ref) return ref;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`order ${orderId} has no card reference`);
}

/** Chooses a country in the element's billing address as a shopper's pick does (a select's
 * value and its `change`: no driver here chooses an option of a select the same way). */
const CHOOSE_COUNTRY: PageScript = `(code) => {
  const select = document.querySelector('pay-checkout').shadowRoot.querySelector('select[name="country"]');
  select.value = code;
  select.dispatchEvent(new Event('change', { bubbles: true }));
  return select.value;
}`;

/**
 * The shopper types contact, address and the challenge card, pays, and answers the bank's
 * challenge in the dialog (the journeys of a shop that knows only the amount).
 */
async function typeShopperAndPayThroughChallenge(s: Shopper): Promise<void> {
  await s.tab.type(field('email'), 'sherlock@example.com');
  await s.tab.type(field('phone'), '020 7946 0018');
  assert.equal(await s.tab.run(CHOOSE_COUNTRY, 'GB'), 'GB');
  await s.tab.type(field('address1'), '221B Baker Street');
  await s.tab.type(field('city'), 'London');
  await s.tab.type(field('zipCode'), 'NW1 6XE');
  await typeCard(s, s.card('3ds2-challenge'));
  // The form is taller with its two parts: the shopper scrolls to Pay (WebKitWebDriver's pointer
  // actions, which the WebKit tab clicks with, do not scroll: "move target out of bounds").
  await s.tab.run(`() => document.querySelector('pay-checkout').shadowRoot
    .querySelector('button[type="submit"]').scrollIntoView({ block: 'center' })`);
  await s.tab.click(PAY);
  await s.tab.waitFor(stateWhere('s.dialogOpen'), null, 'the challenge dialog');
  await answerInDialog(s, s.card('3ds2-challenge').otp ?? '');
}

/**
 * A shop that knows only the amount: the session has no customer; the shopper types their
 * contact and address, then the card, and passes the bank's challenge. The gateway's sale carries
 * exactly what they typed (the sandbox's record of the payer), the phone made E.164, and the
 * merchant API shows it with the order.
 */
async function onlyAnAmount(s: Shopper): Promise<void> {
  const orderId = await openCheckout(s, { challenge: 'iframe', customer: false });
  await typeShopperAndPayThroughChallenge(s);
  await expectApproved(s, orderId);
  const typed = {
    email: 'sherlock@example.com',
    phone: '+442079460018',
    address1: '221B Baker Street',
    city: 'London',
    zip_code: 'NW1 6XE',
    country: 'GB',
  };
  const { gatewayOrderId, customer } = (await order(s, orderId)) as unknown as {
    gatewayOrderId: string;
    customer: Record<string, unknown>;
  };
  const payer = (await (
    await fetch(`${s.stack.sandboxUrl}/sandbox/payer/${gatewayOrderId}`)
  ).json()) as Record<string, string>;
  const { first_name: _first, last_name: _last, ...carried } = payer;
  assert.deepEqual(carried, typed, 'the gateway’s sale carried what the shopper typed');
  const { zip_code: zipCode, ...rest } = typed;
  assert.deepEqual(
    Object.fromEntries(Object.keys({ ...rest, zipCode }).map((k) => [k, customer[k]])),
    { ...rest, zipCode },
    `the merchant API shows it: ${JSON.stringify(customer)}`,
  );
}

/**
 * A payment link (issue 38): the merchant creates one with amount, currency and description only;
 * the shopper opens its URL (the backend's own page, its strict CSP, the element pinned by
 * integrity), types contact, address and card, passes the bank's challenge; the link reads `paid`.
 */
async function paymentLink(s: Shopper): Promise<void> {
  const created = await s.stack.merchantApi('POST', '/v1/payment-links', {
    amount: '10.42',
    currency: 'EUR',
    description: `Matrix link ${s.engine}`,
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const link = created.body as { id: string; url: string };
  await s.tab.goto(link.url);
  await formReady(s);
  await typeShopperAndPayThroughChallenge(s);
  const end = await outcome(s);
  assert.equal(end.result?.kind, 'approved', `the element shows ${JSON.stringify(end)}`);
  const read = await s.stack.merchantApi('GET', `/v1/payment-links/${link.id}`);
  const paid = read.body as { state: string; paymentCount: number };
  assert.equal(paid.state, 'paid', JSON.stringify(read.body));
  assert.equal(paid.paymentCount, 1);
}

export interface Journey {
  name: string;
  /** A colour scheme other than light (the looks checks). */
  scheme?: Scheme;
  run(s: Shopper): Promise<void>;
}

export const JOURNEYS: Journey[] = [
  {
    name: 'a shopper’s browser: a frame on another site gets storage of its own (partitioned)',
    async run(s) {
      const frame = `${s.shop.probeOrigin}/probe/frame`;
      await s.tab.goto(`${s.shop.origin}/probe/page?frame=${encodeURIComponent(frame)}`);
      const framed = await s.tab.waitFor<string>('() => window.probe', null, 'the framed write');
      assert.equal(framed, 'framed', 'the frame could use its storage');
      await s.tab.goto(`${s.shop.probeOrigin}/probe/read`);
      const seen = await s.tab.run<string | null>(`() => localStorage.getItem('probe')`);
      assert.equal(seen, null, 'the framed write reached the site’s own storage: not partitioned');
    },
  },
  {
    name: 'a shop that knows only the amount: the shopper types contact, address and card, 3-D Secure, the sale carries what they typed',
    run: onlyAnAmount,
  },
  {
    name: 'a payment link: opened from its URL, contact, address and card typed, 3-D Secure, the link paid',
    run: paymentLink,
  },
  {
    name: 'approved',
    async run(s) {
      const orderId = await openCheckout(s);
      await pay(s, 'approved');
      await expectApproved(s, orderId);
    },
  },
  {
    name: 'declined: the notice and the form come back, and another card pays',
    async run(s) {
      const orderId = await openCheckout(s);
      await pay(s, 'declined');
      const back = await outcome(s);
      assert.equal(
        back.result,
        null,
        `a decline with attempts left ends on the form: ${JSON.stringify(back)}`,
      );
      assert.ok(back.notice, 'the notice says why the form is back');
      assert.equal(back.numberValue, '', 'the card number is cleared for another card');
      await pay(s, 'approved');
      await expectApproved(s, orderId);
      const attempts = (await order(s, orderId)).attempts.map((a) => a.status);
      assert.deepEqual(attempts, ['declined', 'approved']);
    },
  },
  {
    name: '3-D Secure 2, frictionless: the Method completes in time',
    async run(s) {
      const orderId = await openCheckout(s);
      await pay(s, '3ds2-frictionless');
      await expectApproved(s, orderId);
      const method = (await events(s)).find(
        (e) => e.type === 'pay-3ds-method' && e.detail.phase === 'complete',
      );
      // Y: the bank's Method page, a hidden frame on the bank's site, reported back in time.
      assert.equal(method?.detail.compInd, 'Y', JSON.stringify(method));
    },
  },
  {
    name: '3-D Secure 2, challenge in a frame (the dialog)',
    run: (s) => challengeInFrame(s, '3ds2-challenge', '2'),
  },
  {
    name: '3-D Secure 1.0.2, in the dialog',
    run: (s) => challengeInFrame(s, '3ds1', '1.0.2'),
  },
  {
    name: 'challenge by redirect: to the bank’s page and back, paid',
    async run(s) {
      const orderId = await toBankPage(s);
      await s.tab.type({ el: { css: '#otp' } }, s.card('3ds2-challenge').otp ?? '');
      await s.tab.click({ el: { css: 'button[value="submit"]' } });
      await expectApproved(s, orderId);
      assert.equal(new URL(await s.tab.url()).origin, s.shop.origin);
    },
  },
  {
    name: 'Back on the bank’s page: the element resumes with the form, and another card pays',
    async run(s) {
      const orderId = await toBankPage(s);
      await s.tab.back();
      const back = await s.tab.waitFor<ElementState>(
        stateWhere(`location.origin === ${JSON.stringify(s.shop.origin)} && s.notice && s.ready`),
        null,
        'the shop page again, the element’s notice and form',
        scaled(15_000),
      );
      // Restored from the back/forward cache (`pageshow` persisted) or loaded afresh: either way
      // the element asked the backend where the payment is.
      const restored = back.pageShows.includes(true);
      const why = restored ? null : await s.tab.run<string[] | null>(NOT_RESTORED);
      if (s.engine.backForwardCache) {
        assert.ok(
          restored,
          `${s.engine.name} loaded the shop afresh on Back, not from its back/forward cache (a shopper's would): ${JSON.stringify(why)}`,
        );
      }
      s.note(
        `Back: ${restored ? 'restored from the back/forward cache' : `loaded afresh${why ? ` (not restored because: ${why.join(', ')})` : ''}`} (pageshow persisted: ${JSON.stringify(back.pageShows)})`,
      );
      await pay(s, 'approved');
      await expectApproved(s, orderId);
      const attempts = (await order(s, orderId)).attempts.map((a) => [a.status, a.abandoned]);
      assert.deepEqual(attempts.at(-1), ['approved', false]);
      assert.equal(attempts.length, 2, JSON.stringify(attempts));
    },
  },
  {
    name: 'a returning shopper: saves the card with consent, then pays with it by its security code',
    async run(s) {
      const first = await openCheckout(s, { saveCard: 'ask' });
      await s.tab.click({ el: { host: 'pay-checkout', css: 'input[name="saveCard"]' } });
      await pay(s, 'approved');
      await expectApproved(s, first);
      const saved = await cardRefOf(s, first);
      const card = s.card('approved');
      assert.equal(saved.last4, card.pan.slice(-4));

      const { orderId, url } = await s.shop.checkout({ savedCards: [saved.id] });
      await s.tab.goto(url);
      const chosen = await s.tab.waitFor<string>(SAVED_CARD_READY, null, 'the saved card, chosen');
      assert.equal(
        chosen,
        `Visa •••• ${card.pan.slice(-4)}, ${card.expMonth}/${card.expYear.slice(-2)}`,
      );
      await s.tab.type(field('cvc'), card.cvv);
      await s.tab.click(PAY);
      await expectApproved(s, orderId);
      const submit = (await events(s)).find((e) => e.type === 'pay-submit');
      assert.deepEqual(submit?.detail, {
        mode: 'direct',
        brand: 'visa',
        last4: card.pan.slice(-4),
      });
    },
  },
  {
    name: 'an Arabic checkout (locale="ar"): right to left, in Arabic, and it pays',
    async run(s) {
      const orderId = await openCheckout(s, { locale: 'ar' });
      const layout = await s.tab.run<{
        wrapperDir: string | null;
        wrapperLang: string | null;
        formDirection: string;
        pay: string;
      }>(LAYOUT);
      const seen = JSON.stringify(layout);
      assert.equal(
        layout.formDirection,
        'rtl',
        `the element's form is not laid out right to left with locale="ar" (getComputedStyle(form).direction; the element should render its content in a wrapper with dir="rtl"): ${seen}`,
      );
      assert.ok(
        layout.pay.includes('ادفع') || !/^Pay\b/.test(layout.pay),
        `the Pay button is in English with locale="ar" (expected the Arabic "ادفع"): ${seen}`,
      );
      s.note(`Arabic layout: ${seen}`);
      const run = await axe(s.tab);
      sawInside(run, '#in-number', 'the Arabic form');
      assert.equal(run.violations.length, 0, formatViolations('Arabic form', run.violations));
      await pay(s, 'approved');
      await expectApproved(s, orderId);
      // The card number, left to right inside the Arabic sentence: in its own order on screen.
      const card = await s.tab.run<{ text: string; onScreen: string } | null>(CARD_ON_SCREEN);
      s.note(`Arabic result's card: ${JSON.stringify(card)}`);
      assert.ok(card, 'the Arabic result names no card');
      assert.equal(card.onScreen, card.text, 'the card number shows out of order in Arabic');
    },
  },
];

/**
 * The looks check of a colour scheme: axe on the page with the element's form, then with the
 * challenge dialog open (a card without a Method, so the dialog comes at once). The payment is
 * left in the dialog: what is checked is how it looks.
 */
export function looks(scheme: Scheme): Journey {
  return {
    name: `axe, ${scheme}: no violations with the form, nor with the challenge dialog open`,
    scheme,
    async run(s) {
      await openCheckout(s, { challenge: 'iframe' });
      const media = await s.tab.run<{ dark: boolean; forced: boolean }>(MEDIA);
      assert.equal(media.dark, scheme === 'dark', `prefers-color-scheme: ${JSON.stringify(media)}`);
      assert.equal(media.forced, scheme === 'forced', `forced-colors: ${JSON.stringify(media)}`);
      const form = await axe(s.tab);
      sawInside(form, '#in-number', 'the form');
      await pay(s, '3ds2-challenge-no-method');
      await s.tab.waitFor(stateWhere('s.dialogOpen'), null, 'the challenge dialog');
      const dialog = await axe(s.tab);
      sawInside(dialog, 'iframe', 'the challenge dialog');
      const report = [
        formatViolations(`${s.engine.name}, ${scheme}, form`, form.violations),
        formatViolations(`${s.engine.name}, ${scheme}, challenge dialog`, dialog.violations),
      ]
        .filter(Boolean)
        .join('\n');
      assert.equal(
        form.violations.length + dialog.violations.length,
        0,
        `axe found violations:\n${report}`,
      );
    },
  };
}
