/**
 * The bench's HTTP client: a merchant creating checkout sessions, and a shopper paying with the
 * sandbox's approved test card the way <pay-checkout> does (pay, then follow /widget/next).
 */
import { BROWSER, CUSTOMER } from '../../support/fixtures.js';
import { ALLOWED_ORIGIN } from '../stack/start.js';

export interface TestCard {
  scenario: string;
  pan: string;
  cvv: string;
  expMonth: string;
  expYear: string;
}

let counter = 0;
/** Unique per process and run: the backend refuses a second session for the same order. */
export function uniqueOrderId(): string {
  counter += 1;
  return `bench-${process.pid}-${Date.now().toString(36)}-${counter}`;
}

export function sessionBody(orderId: string): Record<string, unknown> {
  return {
    amount: '10.42',
    currency: 'EUR',
    orderId,
    intent: 'sale',
    description: 'Bench order',
    customer: CUSTOMER,
    returnUrl: `${ALLOWED_ORIGIN}/thank-you`,
  };
}

export async function approvedCard(sandboxUrl: string): Promise<TestCard> {
  const res = await fetch(`${sandboxUrl}/sandbox/test-cards`);
  const cards = (await res.json()) as TestCard[];
  const card = cards.find((c) => c.scenario === 'approved');
  if (!card) throw new Error('the sandbox lists no approved test card');
  return card;
}

export async function createSession(
  backendUrl: string,
  apiKey: string,
): Promise<{ id: string; token: string }> {
  const res = await fetch(`${backendUrl}/v1/checkout-sessions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(sessionBody(uniqueOrderId())),
  });
  const body = (await res.json()) as { id: string; token: string };
  if (res.status !== 201) throw new Error(`session: HTTP ${res.status} ${JSON.stringify(body)}`);
  return body;
}

function widgetHeaders(token: string, json: boolean): Record<string, string> {
  return {
    Authorization: `Bearer ${token}`,
    Origin: ALLOWED_ORIGIN,
    Accept: 'application/json',
    'User-Agent': 'Mozilla/5.0 (pay-checkout bench)',
    ...(json ? { 'Content-Type': 'application/json' } : {}),
  };
}

interface NextAction {
  action: string;
  order?: { status?: string };
}

async function widgetCall(url: string, token: string, body?: unknown): Promise<NextAction> {
  const res = await fetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: widgetHeaders(token, body !== undefined),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await res.json()) as NextAction;
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** POST /widget/pay, then GET /widget/next until `final`; answers the final order status. */
export async function payUntilFinal(
  backendUrl: string,
  token: string,
  card: TestCard,
  deadlineMs = 30_000,
): Promise<string> {
  const end = Date.now() + deadlineMs;
  let next = await widgetCall(`${backendUrl}/widget/pay`, token, {
    card: {
      number: card.pan,
      expMonth: card.expMonth,
      expYear: card.expYear,
      cvc: card.cvv,
      holder: 'John Smith',
    },
    browser: BROWSER,
  });
  while (next.action !== 'final') {
    if (next.action !== 'wait') throw new Error(`unexpected action ${next.action}`);
    if (Date.now() > end) throw new Error('no final answer before the deadline');
    next = await widgetCall(`${backendUrl}/widget/next?wait=5`, token);
  }
  return next.order?.status ?? 'unknown';
}

export function widgetAuth(token: string): Record<string, string> {
  return widgetHeaders(token, false);
}
