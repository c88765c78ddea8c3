/**
 * A scripted shopper's browser: it calls the widget API like <pay-checkout> does and walks the
 * sandbox's ACS pages by following their forms, posting to our return pages as the ACS would.
 */
import assert from 'node:assert/strict';
import type { NextAction, ReturnMessage } from '../../contract/api-types.js';
import { TEST_CARDS } from '../../server/src/sandbox/test-cards.js';
import { BROWSER, CUSTOMER, payBody } from './fixtures.js';
import { type Backend, MERCHANT_API_KEY, MERCHANT_ORIGIN } from './loopback-stack.js';
import { scaled } from './time-scale.js';

export { BROWSER, CUSTOMER };

let counter = 0;
export function uniqueOrderId(prefix = 'ord'): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
}

export async function merchant(
  backendUrl: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${backendUrl}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${MERCHANT_API_KEY}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

export async function createSession(
  backendUrl: string,
  overrides: Record<string, unknown> = {},
): Promise<{ id: string; token: string; orderId: string }> {
  const orderId = (overrides.orderId as string | undefined) ?? uniqueOrderId();
  const res = await merchant(backendUrl, 'POST', '/v1/checkout-sessions', {
    amount: '10.42',
    currency: 'EUR',
    orderId,
    intent: 'sale',
    description: 'Test order',
    customer: CUSTOMER,
    returnUrl: `${MERCHANT_ORIGIN}/thank-you`,
    ...overrides,
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { id: res.body.id, token: res.body.token, orderId };
}

/**
 * A card reference the backend keeps: a sale of the test card of `scenario` in a session that
 * saves always, approved, then its card_refs row (made once the approval is final). `orderRowId`:
 * the order row it was made from.
 */
export async function savedCard(
  be: Backend,
  scenario = 'approved',
): Promise<{ ref: string; orderRowId: string }> {
  const session = await createSession(be.url, { saveCard: 'always' });
  const final = await new Shopper(be.url, session.token).complete(testCard(scenario));
  assert.equal(final.order.status, 'approved');
  const row = await be.store.orders.getByClientOrderId(session.orderId);
  assert.ok(row);
  for (const end = Date.now() + scaled(5_000); Date.now() < end; ) {
    const kept = await be.store.cardRefs.ofOrder(row.id);
    if (kept) return { ref: kept.id, orderRowId: row.id };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail('the card was not kept');
}

export interface Card {
  pan: string;
  cvv?: string;
  otp?: string | null;
  /** The "Save this card for next time" box, when the body is to say (absent: not sent). */
  saveCard?: boolean;
}

/** The sandbox's test card of `scenario`, as a scripted shopper types it. */
export function testCard(scenario: string): Card {
  const found = TEST_CARDS.find((c) => c.scenario === scenario);
  assert.ok(found, `no test card ${scenario}`);
  return { pan: found.pan, cvv: found.cvv, otp: found.otp };
}

export class Shopper {
  readonly backendUrl: string;
  readonly token: string;
  readonly origin: string;
  /** The actions the backend asked for, in order (waits left out). */
  readonly steps: string[] = [];

  constructor(backendUrl: string, token: string, origin = MERCHANT_ORIGIN) {
    this.backendUrl = backendUrl;
    this.token = token;
    this.origin = origin;
  }

  async call(method: 'GET' | 'POST', path: string, body?: unknown) {
    const res = await fetch(`${this.backendUrl}/widget${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${this.token}`,
        Origin: this.origin,
        Accept: 'application/json',
        'User-Agent': 'Mozilla/5.0 (test shopper)',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  /** The body of `POST /widget/pay` with this card. */
  payBody(card: Card) {
    return {
      ...payBody(card.pan, { cvc: card.cvv ?? '123' }),
      ...(card.saveCard === undefined ? {} : { saveCard: card.saveCard }),
    };
  }

  /** The body of `POST /widget/pay` with a saved card of the session, by its handle. */
  savedCardBody(handle: string, cvc?: string) {
    return { savedCard: handle, ...(cvc === undefined ? {} : { cvc }), browser: BROWSER };
  }

  async paySaved(handle: string, cvc?: string): Promise<NextAction> {
    const res = await this.call('POST', '/pay', this.savedCardBody(handle, cvc));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  }

  async pay(card: Card): Promise<NextAction> {
    const res = await this.call('POST', '/pay', this.payBody(card));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  }

  async methodResult(ind: 'Y' | 'N' | 'U'): Promise<NextAction> {
    const res = await this.call('POST', '/method-result', {
      threeDSCompInd: ind,
      browser: BROWSER,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  }

  async next(wait = 2): Promise<NextAction> {
    const res = await this.call('GET', `/next?wait=${wait}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  }

  /** Waits through `wait` answers until something else comes (a quiet machine's deadline, scaled). */
  async until(action: NextAction, deadlineMs = 8_000): Promise<NextAction> {
    const end = Date.now() + scaled(deadlineMs);
    let current = action;
    while (current.action === 'wait') {
      if (Date.now() > end) assert.fail(`still waiting: ${JSON.stringify(current)}`);
      current = await this.next(2);
    }
    return current;
  }

  /**
   * Plays the widget to the end: method (Y, or N for a silent one, U without URL), challenge or
   * 3DS 1.0.2 with `otp`; answers the final action.
   */
  async complete(
    card: Card,
    first?: NextAction,
    options: { otp?: string; cancel?: boolean } = {},
  ): Promise<NextAction> {
    let action = await this.until(first ?? (await this.pay(card)));
    for (let step = 0; step < 10; step++) {
      this.steps.push(
        action.action === 'method' && !action.methodUrl ? 'method-without-url' : action.action,
      );
      if (action.action === 'final') return action;
      if (action.action === 'method') {
        let ind: 'Y' | 'N' | 'U' = 'U';
        if (action.methodUrl && action.methodData) {
          const message = await runMethod(action.methodUrl, action.methodData);
          ind = message ? 'Y' : 'N';
          if (message) assert.equal(message.type, 'method-complete');
        }
        action = await this.until(await this.methodResult(ind));
      } else if (action.action === 'challenge' || action.action === '3ds1') {
        const message = await runChallenge(
          action.acsUrl,
          action.action === 'challenge'
            ? { creq: action.creq }
            : { PaReq: action.paReq, MD: action.md, TermUrl: action.termUrl },
          options.otp ?? card.otp ?? '',
          options.cancel,
        );
        assert.deepEqual(message, {
          source: 'pay-checkout',
          type: 'challenge-complete',
          orderId: action.order.attemptId,
        });
        action = await this.until(await this.next(2));
      } else {
        assert.fail(`unexpected action ${JSON.stringify(action)}`);
      }
    }
    assert.fail('too many steps');
  }
}

function unescapeHtml(text: string): string {
  return text
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

export interface Form {
  action: string;
  fields: Record<string, string>;
}

export function parseForm(html: string, baseUrl: string): Form | undefined {
  const form = /<form[^>]*action="([^"]*)"/.exec(html);
  if (!form?.[1]) return undefined;
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    fields[unescapeHtml(m[1] ?? '')] = unescapeHtml(m[2] ?? '');
  }
  return { action: new URL(unescapeHtml(form[1]), baseUrl).toString(), fields };
}

export async function postForm(
  url: string,
  fields: Record<string, string>,
): Promise<{ status: number; html: string; headers: Headers }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  return { status: res.status, html: await res.text(), headers: res.headers };
}

/** The ReturnMessage our return page would post, read from its JSON data block. */
export function returnMessage(html: string): {
  message: ReturnMessage;
  origin: string | null;
  returnUrl: string | null;
} {
  const m = /<script type="application\/json" id="pay-checkout-return">([^<]*)<\/script>/.exec(
    html,
  );
  assert.ok(m?.[1], `not a return page: ${html.slice(0, 200)}`);
  return JSON.parse(m[1]);
}

/** Runs the 3DS Method in "the hidden iframe"; the message our page posts, or null (silent). */
export async function runMethod(
  methodUrl: string,
  methodData: string,
): Promise<ReturnMessage | null> {
  const acs = await postForm(methodUrl, { threeDSMethodData: methodData });
  const form = parseForm(acs.html, methodUrl);
  if (!form) return null;
  const ours = await postForm(form.action, form.fields);
  assert.equal(ours.status, 200);
  const data = returnMessage(ours.html);
  assert.equal(data.origin, MERCHANT_ORIGIN);
  return data.message;
}

/** Posts to the ACS, enters the code (or cancels), and delivers the ACS's answer to us. */
export async function runChallenge(
  acsUrl: string,
  fields: Record<string, string>,
  otp: string,
  cancel = false,
): Promise<ReturnMessage> {
  const page = await postForm(acsUrl, fields);
  const otpForm = parseForm(page.html, acsUrl);
  assert.ok(otpForm, page.html.slice(0, 300));
  const done = await postForm(otpForm.action, {
    ...otpForm.fields,
    otp,
    action: cancel ? 'cancel' : 'submit',
  });
  const back = parseForm(done.html, otpForm.action);
  assert.ok(back, done.html.slice(0, 300));
  const ours = await postForm(back.action, back.fields);
  assert.equal(ours.status, 200, ours.html.slice(0, 300));
  return returnMessage(ours.html).message;
}
