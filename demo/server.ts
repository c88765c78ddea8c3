/**
 * The demo shop's own server side: what a real merchant's server does beside the companion
 * backend. It creates checkout sessions and runs order operations through the merchant API with
 * the API key, which never reaches the browser, and serves the shop's pages.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import express, { type Request, type Response, type Router } from 'express';
import { hostGuard } from '../server/src/host-guard.js';

export interface DemoOptions {
  /** Base URL of the companion backend's merchant API as this server reaches it. */
  merchantApiUrl: string;
  merchantApiKey: string;
  /** The shop's public base URL (PUBLIC_URL): return URLs are built from it, never from Host. */
  shopUrl: string;
  /** Base URL of the sandbox gateway (for its test-card table); absent against a real gateway. */
  sandboxUrl?: string | undefined;
  /** Path of the built CDN file of the widget. */
  widgetFile: string;
  /**
   * Settles when `widgetFile` is current: `npm start` builds a missing or stale widget beside its
   * own start instead of before it, and the widget's files are served once the build is done.
   */
  widgetBuilt?: Promise<unknown> | undefined;
  fetch?: typeof fetch;
}

const PUBLIC_DIR = new URL('./public/', import.meta.url);

/**
 * Merchant API calls the page may ask for, each as (method, path template), and what the shop's
 * server adds to the body (what it knows of its customer).
 */
const OPERATIONS: Record<
  string,
  { method: 'GET' | 'POST'; path: string; adds?: () => Record<string, unknown> }
> = {
  'order-read': { method: 'GET', path: '/v1/orders/:orderId' },
  'session-expire': { method: 'POST', path: '/v1/checkout-sessions/:sessionId/expire' },
  'order-capture': { method: 'POST', path: '/v1/orders/:orderId/capture' },
  'order-void': { method: 'POST', path: '/v1/orders/:orderId/void' },
  'order-return': { method: 'POST', path: '/v1/orders/:orderId/return' },
  'order-card-ref': { method: 'POST', path: '/v1/orders/:orderId/card-ref' },
  'order-status': { method: 'POST', path: '/v1/orders/:orderId/refresh' },
  'card-ref-read': { method: 'GET', path: '/v1/card-refs/:cardRefId' },
  rebill: { method: 'POST', path: '/v1/rebills' },
  payout: { method: 'POST', path: '/v1/payouts' },
  'payout-check': { method: 'POST', path: '/v1/payouts/check' },
  'payout-pay': { method: 'POST', path: '/v1/payouts/:payoutId/pay' },
  'payout-read': { method: 'GET', path: '/v1/payouts/:payoutId' },
  'recurring-create': { method: 'POST', path: '/v1/recurring-payments' },
  'hosted-form': { method: 'POST', path: '/v1/hosted-forms' },
  'account-verification': { method: 'POST', path: '/v1/account-verifications' },
  'payment-link': {
    method: 'POST',
    path: '/v1/payment-links',
    adds: () => ({ customer: DEMO_CUSTOMER, metadata: { source: 'demo' } }),
  },
  'payment-link-read': { method: 'GET', path: '/v1/payment-links/:paymentLinkId' },
  'payment-link-deactivate': {
    method: 'POST',
    path: '/v1/payment-links/:paymentLinkId/deactivate',
  },
};

export function createDemoRouter(options: DemoOptions): Router {
  const doFetch = options.fetch ?? fetch;
  const router = express.Router();
  // The relay holds the merchant API key: only this machine's and the shop's own host names.
  router.use('/demo/api', hostGuard([options.shopUrl]), express.json({ limit: '16kb' }));

  const merchantApi = async (method: string, path: string, body?: unknown) => {
    const response = await doFetch(new URL(path, options.merchantApiUrl), {
      method,
      headers: {
        authorization: `Bearer ${options.merchantApiKey}`,
        'content-type': 'application/json',
        // A fresh key per shopper action: a double click is one request, never two charges.
        ...(method === 'POST' ? { 'idempotency-key': crypto.randomUUID() } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
  };

  const relay = async (res: Response, call: Promise<{ status: number; body: unknown }>) => {
    try {
      const { status, body } = await call;
      res.status(status).json(body);
    } catch {
      res
        .status(502)
        .json({ error: { code: 'backend-unreachable', message: 'the backend did not answer' } });
    }
  };

  /**
   * The demo's one customer's orders whose session offered to save the card, newest first: what a
   * shop keeps with its customer account. The card references themselves are read from the orders
   * (`cardRef`, once the backend made one), so a card the backend did not save is never offered.
   */
  const mayHaveSaved: string[] = [];

  /** The card references this customer saved, newest first, at most the 10 a session takes. */
  const savedCardRefs = async (): Promise<string[]> => {
    const refs: string[] = [];
    for (const orderId of mayHaveSaved) {
      const { status, body } = await merchantApi(
        'GET',
        `/v1/orders/${encodeURIComponent(orderId)}`,
      );
      const cardRef = (body as { cardRef?: { id: string; forgotten?: boolean } } | null)?.cardRef;
      if (status === 200 && cardRef && !cardRef.forgotten && !refs.includes(cardRef.id)) {
        refs.push(cardRef.id);
      }
      if (refs.length === 10) break;
    }
    return refs;
  };

  router.post('/demo/api/checkout', async (req: Request, res: Response) => {
    const input = (req.body ?? {}) as Record<string, unknown>;
    const orderId = `demo-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
    const returnUrl = new URL(`/?resume=${orderId}`, options.shopUrl).href;
    // Saved cards pay sales only (the gateway's rebill): a preauth is offered none.
    const sale = input.intent !== 'preauth';
    const savedCards =
      sale && input.returning === true ? await savedCardRefs().catch(() => []) : [];
    const saveCard = input.saveCard === true ? 'ask' : 'never';
    return relay(
      res,
      merchantApi('POST', '/v1/checkout-sessions', {
        amount: input.amount,
        currency: input.currency,
        intent: input.intent,
        orderId,
        description: input.description ?? 'Demo order',
        // What the shop knows of the shopper; the element asks for the rest (issue 35).
        ...customerKnown(input.knows),
        returnUrl,
        metadata: { source: 'demo' },
        saveCard,
        ...(savedCards.length ? { savedCards } : {}),
      }).then(({ status, body }) => {
        if (status === 201 && saveCard === 'ask') mayHaveSaved.splice(0, 0, orderId);
        mayHaveSaved.length = Math.min(mayHaveSaved.length, 20);
        return { status, body: status === 201 ? { ...(body as object), orderId } : body };
      }),
    );
  });

  router.post('/demo/api/operation/:name', (req: Request, res: Response) => {
    const operation = OPERATIONS[String(req.params.name)];
    if (!operation) {
      res.status(404).json({ error: { code: 'not-found', message: 'no such demo operation' } });
      return;
    }
    const { params = {}, body } = (req.body ?? {}) as {
      params?: Record<string, string>;
      body?: unknown;
    };
    const path = operation.path.replace(/:(\w+)/g, (_, name: string) =>
      encodeURIComponent(params[name] ?? ''),
    );
    const sent = { ...(body ?? {}), ...operation.adds?.() };
    return relay(
      res,
      merchantApi(operation.method, path, operation.method === 'POST' ? sent : undefined),
    );
  });

  router.get('/demo/api/test-cards', async (_req, res) => {
    if (!options.sandboxUrl) {
      res.json([]);
      return;
    }
    return relay(
      res,
      doFetch(new URL('/sandbox/test-cards', options.sandboxUrl)).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as unknown,
      })),
    );
  });

  // A failed build is for its starter to report: here the file is then missing (404 below).
  const built = options.widgetBuilt?.catch(() => {});
  const widgetBuilt = async () => {
    await built;
  };

  router.get('/pay-checkout.js', async (_req, res) => {
    try {
      await widgetBuilt();
      const script = await readFile(options.widgetFile);
      res.type('text/javascript').set('cache-control', 'no-cache').send(script);
    } catch {
      res.status(404).type('text/plain').send('The widget is not built: run `npm run build`.');
    }
  });

  // The element's other languages, beside its file as on a CDN (fetched when a shopper needs one).
  router.use(
    '/locales',
    (_req, _res, next) => {
      widgetBuilt().then(() => next(), next);
    },
    express.static(join(dirname(options.widgetFile), 'locales'), { fallthrough: false }),
  );
  router.use(express.static(new URL(PUBLIC_DIR).pathname, { index: 'index.html' }));
  return router;
}

/**
 * The session's customer as the demo's switch "what the shop knows about the shopper" says:
 * `everything` (the default) sends the whole customer below, `email` its e-mail alone, `nothing`
 * no customer at all; the element asks the shopper for what the gateway still needs.
 */
function customerKnown(knows: unknown): { customer?: Partial<typeof DEMO_CUSTOMER> } {
  if (knows === 'nothing') return {};
  if (knows === 'email') return { customer: { email: DEMO_CUSTOMER.email } };
  return { customer: DEMO_CUSTOMER };
}

/** A believable customer for every demo order (the gateway wants address and contact fields). */
const DEMO_CUSTOMER = {
  email: 'shopper@example.com',
  firstName: 'Alex',
  lastName: 'Shopper',
  address1: '1 Market Street',
  city: 'Amsterdam',
  zipCode: '1011AB',
  country: 'NL',
  phone: '+31201234567',
};
