/**
 * An in-page fake of the companion backend's widget API, given to the element as its `fetch`.
 * Tests queue answers per route and read back every request exactly as sent.
 */
import type { NextAction, OrderView, SessionView } from '../../../contract/api-types.js';

export interface Recorded {
  method: string;
  /** Path and query after the backend base, e.g. "/widget/next?wait=20". */
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

/** An answer: JSON with a status, a thrown network error, or a function deciding later. */
export type Answer =
  | { status?: number; json: unknown }
  | { networkError: true }
  | ((req: Recorded) => Answer | Promise<Answer>);

export const BASE_PATH = '/fake-backend';

export class FakeBackend {
  readonly calls: Recorded[] = [];
  private queues = new Map<string, Answer[]>();
  private served = new Map<string, number>();
  private waiters: { key: string; resolve: () => void }[] = [];

  /** Queue answers for "METHOD /path" (no query), one per request; the last one repeats. */
  on(route: string, ...answers: Answer[]): this {
    this.queues.set(route, [...(this.queues.get(route) ?? []), ...answers]);
    return this;
  }

  /** Whether answers were queued for a route. */
  has(route: string): boolean {
    return this.queues.has(route);
  }

  /** Requests to one route, in order. */
  requests(route: string): Recorded[] {
    return this.calls.filter((c) => `${c.method} ${c.path.split('?')[0]}` === route);
  }

  /** Resolves once a request to `route` has been made (now or later). */
  waitFor(route: string, count = 1): Promise<void> {
    if (this.requests(route).length >= count) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (this.requests(route).length >= count) resolve();
        else this.waiters.push({ key: route, resolve: check });
      };
      this.waiters.push({ key: route, resolve: check });
    });
  }

  fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input));
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const path = url.pathname.slice(BASE_PATH.length) + url.search;
    const rec: Recorded = {
      method: init.method ?? 'GET',
      path,
      headers,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    this.calls.push(rec);
    const key = `${rec.method} ${url.pathname.slice(BASE_PATH.length)}`;
    for (const w of this.waiters.splice(0)) w.resolve();
    const queue = this.queues.get(key) ?? [];
    const n = this.served.get(key) ?? 0;
    this.served.set(key, n + 1);
    let answer: Answer | undefined = queue[Math.min(n, queue.length - 1)];
    if (!answer)
      return json(500, {
        error: { code: 'internal', message: `fake backend: no answer for ${key}` },
      });
    while (typeof answer === 'function') answer = await answer(rec);
    if ('networkError' in answer) throw new TypeError('Failed to fetch');
    return json(answer.status ?? 200, answer.json);
  };
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

export const ORDER_ID = 'order-1042';

export function order(over: Partial<OrderView> = {}): OrderView {
  return {
    orderId: ORDER_ID,
    attemptId: ORDER_ID,
    attempt: 1,
    // The session's last attempt unless a test says otherwise: a failure ends the checkout.
    attemptsLeft: 0,
    status: 'processing',
    amount: '10.42',
    amountMinor: 1042,
    currency: 'EUR',
    intent: 'sale',
    ...over,
  };
}

export function sessionView(over: Partial<SessionView> = {}): SessionView {
  return {
    id: 'sess-1',
    orderId: ORDER_ID,
    amount: '10.42',
    amountMinor: 1042,
    currency: 'EUR',
    description: 'Test order',
    intent: 'sale',
    modes: ['direct', 'hosted'],
    state: 'open',
    expiresAt: '2026-06-15T13:00:00Z',
    ...over,
  };
}

export const APPROVED_CARD = { brand: 'visa', last4: '4242', masked: '424242******4242' };

export const finalApproved = (): NextAction => ({
  action: 'final',
  order: order({ status: 'approved', gatewayOrderId: '77001', card: APPROVED_CARD }),
});

export const finalDeclined = (reason = 'Authentication failed'): NextAction => ({
  action: 'final',
  order: order({ status: 'declined', reason, errorCode: '3DS-N' }),
});
