/**
 * createPayCheckout mounted at /pay inside another Express app (the shop's own routes beside it):
 * a shopper pays through every 3DS path, and every URL the backend hands out (return pages,
 * callbacks, the OpenAPI servers) carries the mount path, so no request lands outside /pay.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import express from 'express';
import { createLogger } from '../../../server/src/checkout/logger.js';
import { createPayCheckout, type PayCheckout } from '../../../server/src/library/pay-checkout.js';
import { TEST_CARDS } from '../../../server/src/sandbox/index.js';
import {
  closeServer,
  devMerchantAt,
  FAST_TIMING,
  JWT_SECRET,
  listen,
  MERCHANT_API_KEY,
  MERCHANT_ORIGIN,
  type Sandbox,
  startSandbox,
} from '../../support/loopback-stack.js';
import { scaled } from '../../support/time-scale.js';
import { createSession, merchant, Shopper } from '../../support/widget-api-client.js';

const card = (scenario: string) => {
  const found = TEST_CARDS.find((c) => c.scenario === scenario);
  assert.ok(found, scenario);
  return { pan: found.pan, cvv: found.cvv, otp: found.otp };
};

describe('createPayCheckout mounted at /pay in the shop’s Express app', () => {
  let sb: Sandbox;
  let shop: Awaited<ReturnType<typeof listen>>;
  let pay: PayCheckout;
  let base: string;
  /** Every request the shop's server answered: `METHOD path status`. */
  const seen: string[] = [];

  before(async () => {
    sb = await startSandbox();
    shop = await listen();
    // start() takes seconds (a fresh PGlite): keep fetch's idle socket open across it.
    shop.server.keepAliveTimeout = 30_000;
    const shopOrigin = shop.url;
    base = `${shopOrigin}/pay`;
    pay = createPayCheckout(
      {
        gateway: devMerchantAt(sb, sb.gatewayUrl),
        merchantApiKey: MERCHANT_API_KEY,
        jwtSecret: JWT_SECRET,
        publicUrl: base,
        allowedOrigins: [MERCHANT_ORIGIN],
        database: { memory: true },
        logLevel: 'silent',
      },
      { timing: FAST_TIMING, logger: createLogger({ level: 'silent' }) },
    );
    const app = express();
    app.use((req, res, next) => {
      res.on('finish', () => seen.push(`${req.method} ${req.originalUrl} ${res.statusCode}`));
      next();
    });
    app.get('/', (_req, res) => {
      res.type('text/plain').send('the shop');
    });
    app.use('/pay', pay.router);
    app.post('/api/cart', express.json(), (req, res) => {
      res.json({ items: req.body.items });
    });
    shop.server.on('request', app);
  });

  after(async () => {
    await closeServer(shop.server);
    await pay.stop();
    await sb.close();
  });

  it('answers 503 naming start() until it is started; the shop’s routes work throughout', async () => {
    const early = await fetch(`${base}/healthz`);
    assert.equal(early.status, 503);
    assert.deepEqual(await early.json(), {
      error: { code: 'unavailable', message: 'pay-checkout is not started (call start())' },
    });
    await pay.start();
    await pay.start(); // a second call is the same start
    const health = await fetch(`${base}/healthz`);
    assert.equal(health.status, 200);
    await health.body?.cancel();
    const page = await fetch(`${shop.url}/`);
    assert.equal(await page.text(), 'the shop');
    const cart = await fetch(`${shop.url}/api/cart`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ items: ['hat'] }),
    });
    assert.deepEqual(await cart.json(), { items: ['hat'] });
  });

  it('the OpenAPI document names the mounted URL as its server', async () => {
    const doc = await merchant(base, 'GET', '/v1/openapi.json');
    assert.equal(doc.status, 200);
    assert.deepEqual(
      doc.body.servers.map((s: { url: string }) => s.url),
      [base],
    );
  });

  for (const [scenario, steps] of [
    ['3ds2-challenge', ['method', 'challenge', 'final']],
    ['3ds2-frictionless', ['method', 'final']],
    ['3ds1', ['3ds1', 'final']],
    ['approved', ['final']],
  ] as const) {
    it(`${scenario}: the shopper pays through /pay and the order is approved`, async () => {
      const session = await createSession(base);
      const shopper = new Shopper(base, session.token);
      const first = await shopper.pay(card(scenario));
      if (first.action === '3ds1') assert.ok(first.termUrl.startsWith(`${base}/return/`));
      const final = await shopper.complete(card(scenario), first);
      assert.deepEqual(shopper.steps, steps);
      assert.equal(final.action, 'final');
      assert.equal(final.order.status, 'approved');
      const order = await merchant(base, 'GET', `/v1/orders/${session.orderId}`);
      assert.equal(order.status, 200);
      assert.equal(order.body.status, 'approved');
    });
  }

  it('the gateway’s callbacks reach /pay/callbacks/gateway, and nothing reached a path outside /pay', async () => {
    const deadline = Date.now() + scaled(5_000);
    while (!seen.some((line) => /^(GET|POST) \/pay\/callbacks\/gateway\?.* 200$/.test(line))) {
      assert.ok(Date.now() < deadline, `no callback arrived: ${seen.join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const outside = seen.filter(
      (line) => !/^\w+ \/pay\//.test(line) && !['GET / 200', 'POST /api/cart 200'].includes(line),
    );
    assert.deepEqual(outside, []);
    assert.deepEqual(
      seen.filter((line) => / (404|5\d\d)$/.test(line) && !line.includes('/pay/healthz 503')),
      [],
    );
  });

  it('after stop() it answers 503 again; stop() twice is harmless', async () => {
    await pay.stop();
    await pay.stop();
    const res = await fetch(`${base}/healthz`);
    assert.equal(res.status, 503);
    await res.body?.cancel();
  });
});
