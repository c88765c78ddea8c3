/**
 * A gateway (or a proxy in front of it) answering a card-bearing POST with a 307 to another host
 * never gets the card sent there: the backend does not follow the redirect, and nothing is charged.
 * Against the in-process stack (sandbox and backend on loopback HTTP).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  card,
  closeServer,
  createSession,
  listen,
  payBody,
  Shopper,
  sandboxTransactions,
  startBackend,
} from './support/proof.js';
import { usePair } from './support/use-pair.js';

const { pair } = usePair();

describe('a gateway that redirects', () => {
  it('a gateway answering 307 to another host never gets the card sent there', async () => {
    // The attack: whoever controls the gateway's front (or a proxy) redirects a card-bearing POST.
    const received: string[] = [];
    const collector = await listen((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        received.push(`${req.method} ${req.url} ${body}`);
        res.end('{}');
      });
    });
    const redirector = await listen((req, res) => {
      req.resume();
      res.writeHead(307, { Location: `${collector.url}${req.url}` }).end();
    });
    const be = await startBackend(pair.sb, {
      store: pair.store,
      config: { gateway: { ...pair.be.config.gateway, url: `${redirector.url}/paynet` } },
    });
    try {
      const session = await createSession(be.url);
      const before = await sandboxTransactions(pair.sb, session.orderId);
      const res = await new Shopper(be.url, session.token).call(
        'POST',
        '/pay',
        payBody(card('approved').pan),
      );
      assert.notEqual(res.body?.order?.status, 'approved', JSON.stringify(res.body));
      assert.deepEqual(received, []);
      assert.deepEqual(before, []);
      assert.deepEqual(await sandboxTransactions(pair.sb, session.orderId), []);
      const order = await pair.store.orders.getByClientOrderId(session.orderId);
      assert.ok(order);
      const history = await pair.store.history.forOrder(order.id);
      assert.ok(history.length > 0);
      for (const entry of history) {
        if (entry.operation === 'sale') assert.equal(entry.httpStatus, 307);
      }
    } finally {
      await be.close();
      await closeServer(redirector.server);
      await closeServer(collector.server);
    }
  });
});
