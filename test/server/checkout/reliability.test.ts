/**
 * Reliability: a dropped sale answer leaves the order unknown and is resolved by status (never a
 * second sale); a restart in the middle of 3-D Secure loses nothing; several instances on one
 * PostgreSQL carry one payment between them; webhooks are signed and retried.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { verifyWebhook } from '../../../server/src/checkout/webhooks/webhook-signature.js';
import type { FetchLike } from '../../../server/src/gateway/index.js';
import {
  type Backend,
  type Sandbox,
  startBackend,
  startSandbox,
} from '../../support/loopback-stack.js';
import { postgresStore } from '../../support/stores.js';
import {
  createSession,
  merchant,
  runChallenge,
  runMethod,
  Shopper,
} from '../../support/widget-api-client.js';

/** Drops the answer of every sale (the sandbox commits it, then cuts the connection). */
function dropSales(counter: { sales: number }): FetchLike {
  return (url, init) => {
    const isSale = url.includes('/api/v2/sale/');
    if (isSale) counter.sales += 1;
    const headers = {
      ...(init.headers as Record<string, string>),
      ...(isSale ? { 'X-Sandbox-Fault': 'drop' } : {}),
    };
    return fetch(url, { ...init, headers } as RequestInit) as unknown as ReturnType<FetchLike>;
  };
}

/** A backend that queues webhooks (to an address nothing listens on: only the outbox matters). */
function startWithOutbox(sb: Sandbox): Promise<Backend> {
  return startBackend(sb, {
    config: { webhook: { url: 'http://127.0.0.1:9/hooks', secret: 'webhook-secret-0123456789' } },
  });
}

/** The outbox refuses every event from now on (a full disk, a connection lost mid-write). */
async function refuseEvents(be: Backend): Promise<void> {
  await be.store.db.query(
    `create or replace function refuse_event() returns trigger language plpgsql as
       $$ begin raise exception 'the outbox is down'; end $$`,
  );
  await be.store.db.query(
    `create trigger refuse_event before insert on merchant_webhooks
       for each row execute function refuse_event()`,
  );
}

async function acceptEvents(be: Backend): Promise<void> {
  await be.store.db.query('drop trigger refuse_event on merchant_webhooks');
}

describe('reliability', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox();
  });
  after(async () => {
    await sb.close();
  });

  it('a dropped sale answer leaves the order unknown; following it resolves by status, with one sale', async () => {
    const counter = { sales: 0 };
    const be = await startBackend(sb, { gatewayFetch: dropSales(counter) });
    try {
      const session = await createSession(be.url);
      const shopper = new Shopper(be.url, session.token);
      const first = await shopper.pay({ pan: '4000000000000002' });
      const stored = await be.store.orders.getByClientOrderId(session.orderId);
      assert.ok(first.action === 'wait' || first.action === 'final', first.action);
      assert.notEqual(stored?.status, 'new');
      const final = await shopper.until(first);
      assert.equal(final.action, 'final');
      assert.equal(final.order.status, 'approved');
      assert.equal(counter.sales, 1);
      const again = await shopper.call('POST', '/pay', {
        card: {
          number: '4000000000000002',
          expMonth: '12',
          expYear: '2030',
          cvc: '123',
          holder: 'A',
        },
        browser: (await import('../../support/widget-api-client.js')).BROWSER,
      });
      assert.equal(again.body.order.status, 'approved');
      assert.equal(counter.sales, 1);
    } finally {
      await be.close();
    }
  });

  it('the reconciler resolves an unknown order by client_orderid, and closes one the gateway never saw', async () => {
    const counter = { sales: 0 };
    const be = await startBackend(sb, { gatewayFetch: dropSales(counter) });
    try {
      const session = await createSession(be.url);
      await new Shopper(be.url, session.token).call('POST', '/pay', {
        card: {
          number: '4000000000000002',
          expMonth: '12',
          expYear: '2030',
          cvc: '123',
          holder: 'A',
        },
        browser: (await import('../../support/widget-api-client.js')).BROWSER,
      });
      // Whatever the pay call saw, make it look untouched since, then let the reconciler run.
      for (
        let i = 0;
        i < 20 &&
        (await be.store.orders.getByClientOrderId(session.orderId))?.status !== 'approved';
        i++
      ) {
        await be.checkout.reconcile(0);
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.equal((await be.store.orders.getByClientOrderId(session.orderId))?.status, 'approved');
      assert.equal(counter.sales, 1);
      // An order whose sale never left (a crash before sending): status says not found -> error.
      const ghost = await createSession(be.url);
      const claim = await be.store.sessions.claimForPayment(ghost.id, {});
      assert.ok(claim.won);
      await be.checkout.reconcile(0);
      const closed = await be.store.orders.get(claim.order.id);
      assert.equal(closed?.status, 'error');
      assert.equal(closed?.reason, 'The payment request never reached the gateway');
      assert.equal(counter.sales, 1);
    } finally {
      await be.close();
    }
  });

  it("a 429 from a proxy in front of the gateway's status does not close an order as never sent", async () => {
    const throttled: FetchLike = (url, init) =>
      (url.includes('/api/v2/status/')
        ? Promise.resolve(
            new Response('{"message":"Too Many Requests"}', {
              status: 429,
              headers: { 'Content-Type': 'application/json' },
            }),
          )
        : fetch(url, init as RequestInit)) as unknown as ReturnType<FetchLike>;
    const be = await startBackend(sb, { gatewayFetch: throttled });
    try {
      const ghost = await createSession(be.url);
      const claim = await be.store.sessions.claimForPayment(ghost.id, {});
      assert.ok(claim.won);
      const before = await be.store.orders.get(claim.order.id);
      await be.checkout.reconcile(0);
      // The status was throttled, not answered: the order waits for the next pass as it was.
      assert.deepEqual(await be.store.orders.get(claim.order.id), before);
    } finally {
      await be.close();
    }
  });

  it('a restart in the middle of 3-D Secure loses nothing', async () => {
    const first = await startBackend(sb);
    const port = Number(new URL(first.url).port);
    const store = first.store;
    const session = await createSession(first.url);
    const shopper = new Shopper(first.url, session.token);
    const method = await shopper.until(await shopper.pay({ pan: '4000000000000044' }));
    assert.equal(method.action, 'method');
    // Stop the instance (store kept: it is the database), start a new one on the same URL.
    await first.checkout.close();
    await new Promise<void>((resolve) => {
      first.server.closeAllConnections();
      first.server.close(() => resolve());
    });
    const second = await startBackend(sb, { store, port });
    try {
      const resumed = new Shopper(second.url, session.token);
      // The old instance's keep-alive socket is gone: the first call retries once, as the widget does.
      const again = await resumed.next(0).catch(() => resumed.next(0));
      assert.equal(again.action, 'method');
      const final = await resumed.complete({ pan: '4000000000000044', otp: '1234' }, again);
      assert.equal(final.order.status, 'approved');
      assert.deepEqual(resumed.steps, ['method', 'challenge', 'final']);
    } finally {
      await second.close();
      await store.close();
    }
  });

  it('several instances on one PostgreSQL: 3DS started on one completes through another', async () => {
    const pgStore = postgresStore('checkout_multi');
    const storeA = await pgStore.open();
    const storeB = await pgStore.open();
    const a = await startBackend(sb, { store: storeA });
    const b = await startBackend(sb, { store: storeB });
    try {
      const session = await createSession(a.url);
      const onA = new Shopper(a.url, session.token);
      const onB = new Shopper(b.url, session.token);
      const method = await onA.until(await onA.pay({ pan: '4000000000000044' }));
      assert.equal(method.action, 'method');
      assert.ok(method.action === 'method' && method.methodUrl && method.methodData);
      // The ACS notifies instance A's return URL; the method result goes to instance B.
      const message = await runMethod(method.methodUrl, method.methodData);
      assert.equal(message?.type, 'method-complete');
      const challenge = await onB.until(await onB.methodResult('Y'));
      assert.equal(challenge.action, 'challenge');
      assert.ok(challenge.action === 'challenge');
      // The ACS posts the CRes to A's return page; B follows the order to its end.
      const done = await runChallenge(challenge.acsUrl, { creq: challenge.creq }, '1234');
      assert.equal(done.type, 'challenge-complete');
      const final = await onB.until(await onB.next(2));
      assert.equal(final.action, 'final');
      assert.equal(final.order.status, 'approved');
      const fromA = await merchant(a.url, 'GET', `/v1/orders/${session.orderId}`);
      assert.equal(fromA.body.status, 'approved');
    } finally {
      await a.close();
      await b.close();
      await storeA.close();
      await storeB.close();
      await pgStore.cleanup();
    }
  });

  it('a final status and its webhook commit together: a refused event leaves the order pending', async () => {
    const be = await startWithOutbox(sb);
    try {
      // An order whose sale never left: the reconciler closes it as error...
      const ghost = await createSession(be.url);
      const claim = await be.store.sessions.claimForPayment(ghost.id, {});
      assert.ok(claim.won);
      // ...while the outbox refuses every event (a full disk, a lost connection mid-write).
      await refuseEvents(be);
      await be.checkout.reconcile(0);
      assert.equal((await be.store.orders.get(claim.order.id))?.status, 'new');
      assert.equal((await be.store.sessions.get(ghost.id))?.state, 'paying');
      assert.deepEqual(await be.store.webhooks.forOrder(claim.order.id), []);

      await acceptEvents(be);
      await be.checkout.reconcile(0);
      assert.equal((await be.store.orders.get(claim.order.id))?.status, 'error');
      // An error is one failed attempt: the session takes another card.
      assert.equal((await be.store.sessions.get(ghost.id))?.state, 'open');
      const events = await be.store.webhooks.forOrder(claim.order.id);
      assert.deepEqual(
        events.map((e) => e.event),
        ['payment.declined'],
      );
    } finally {
      await be.close();
    }
  });

  it('an expiry and its order.expired commit together: a refused event leaves the session open', async () => {
    const be = await startWithOutbox(sb);
    try {
      const session = await createSession(be.url);
      await be.store.db.query(
        "update checkout_sessions set expires_at = now() - interval '1 second' where id = $1",
        [session.id],
      );
      const order = await be.store.orders.getByClientOrderId(session.orderId);
      assert.ok(order);
      await refuseEvents(be);
      await assert.rejects(be.checkout.expireSessions(), /the outbox is down/);
      assert.equal((await be.store.sessions.get(session.id))?.state, 'open');
      assert.equal((await be.store.orders.get(order.id))?.status, 'awaiting-payment');

      await acceptEvents(be);
      await be.checkout.expireSessions();
      assert.equal((await be.store.sessions.get(session.id))?.state, 'expired');
      assert.equal((await be.store.orders.get(order.id))?.status, 'expired');
      const events = await be.store.webhooks.forOrder(order.id);
      assert.deepEqual(
        events.map((e) => e.event),
        ['order.expired'],
      );
    } finally {
      await be.close();
    }
  });

  it('posts a signed webhook on every final status, retrying with backoff', async () => {
    const received: { body: string; signature: string | undefined }[] = [];
    let failuresLeft = 2;
    const hook = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        if (failuresLeft > 0) {
          failuresLeft -= 1;
          res.writeHead(503).end();
          return;
        }
        received.push({
          body,
          signature: req.headers['pay-checkout-signature'] as string | undefined,
        });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hooks`;
    const secret = 'webhook-secret-0123456789';
    const be: Backend = await startBackend(sb, { config: { webhook: { url: hookUrl, secret } } });
    try {
      const session = await createSession(be.url);
      const final = await new Shopper(be.url, session.token).complete({ pan: '4000000000000010' });
      assert.equal(final.order.status, 'declined');
      for (let i = 0; i < 40 && received.length === 0; i++) {
        await be.checkout.deliverWebhooks();
        await new Promise((r) => setTimeout(r, 30));
      }
      assert.equal(received.length, 1);
      const [event] = received;
      assert.ok(event);
      assert.ok(verifyWebhook(event.body, event.signature, secret));
      assert.ok(!verifyWebhook(event.body, event.signature, 'other-secret-0123456789'));
      const payload = JSON.parse(event.body) as {
        type: string;
        data: { order: { orderId: string; status: string } };
      };
      // A declined attempt: the session takes another card, so the order is not over yet.
      assert.equal(payload.type, 'payment.declined');
      assert.equal(payload.data.order.orderId, session.orderId);
      assert.equal(payload.data.order.status, 'declined');
      const order = await be.store.orders.getByClientOrderId(session.orderId);
      const rows = await be.store.webhooks.forOrder(order?.id ?? '');
      assert.equal(rows.length, 1);
      assert.equal(rows[0]?.attempts, 3);
      assert.ok(rows[0]?.deliveredAt);
    } finally {
      await be.close();
      hook.close();
    }
  });
});
