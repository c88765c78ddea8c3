/**
 * Security proofs against the in-process stack (sandbox + companion backend on loopback HTTP):
 * session tokens, CORS, forged callbacks and final redirects, replayed 3DS returns, amount
 * tampering from the browser, and a search for every secret in what reaches a browser (widget
 * API answers, return pages, demo pages, the built widget).
 */
import assert from 'node:assert/strict';
import { createHash, createHmac, generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import express from 'express';
import jwt from 'jsonwebtoken';
import type { NextAction } from '../../contract/api-types.js';
import { ensureWidgetBuilt } from '../../server/src/widget-build.js';
import {
  type Backend,
  BROWSER,
  CHECKOUT_TABLES,
  card,
  closeServer,
  createSession,
  exactlyOneCharge,
  historyCount,
  JWT_SECRET,
  listen,
  MERCHANT_API_KEY,
  MERCHANT_ORIGIN,
  type Pair,
  parseForm,
  payBody,
  postForm,
  returnMessage,
  runMethod,
  type Sandbox,
  Shopper,
  sandboxTransactions,
  snapshotTables,
  startPair,
} from './support/proof.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const AUD = 'pay-checkout-widget';
const ISS = 'pay-checkout';

const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');
function handMadeToken(header: object, payload: object, sign: (input: string) => string) {
  const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}`;
  return `${input}.${sign(input)}`;
}

/** Every answer the backend gives (what a browser or the merchant server would read). */
interface Seen {
  url: string;
  status: number;
  headers: string;
  body: string;
}

describe('security proofs', () => {
  let sb: Sandbox;
  let be: Backend;
  let pair: Pair;
  const seen: Seen[] = [];
  const realFetch = globalThis.fetch;
  let secrets: Record<string, string>;

  before(async () => {
    pair = await startPair();
    sb = pair.sb;
    be = pair.be;
    const dev = sb.sandbox.devCredentials;
    assert.ok(dev);
    const pem = await readFile(dev.privateKeyFile, 'utf8');
    const keyBody = pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
    secrets = {
      controlKey: dev.controlKey,
      merchantApiKey: MERCHANT_API_KEY,
      jwtSecret: JWT_SECRET,
      // Any 40-character stretch of the private key's base64 body would be a leak.
      ...Object.fromEntries(
        Array.from({ length: Math.floor(keyBody.length / 40) }, (_, i) => [
          `privateKey[${i}]`,
          keyBody.slice(i * 40, i * 40 + 40),
        ]),
      ),
    };
    // Record every answer from the backend, whoever asked for it.
    globalThis.fetch = async (input, init) => {
      const response = await realFetch(input, init);
      const url = input instanceof Request ? input.url : String(input);
      if (url.startsWith(be.url)) {
        const copy = response.clone();
        seen.push({
          url,
          status: response.status,
          headers: JSON.stringify([...copy.headers]),
          body: await copy.text(),
        });
      }
      return response;
    };
  });
  after(async () => {
    globalThis.fetch = realFetch;
    await pair.close();
  });

  const widget = (
    token: string | undefined,
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    origin = MERCHANT_ORIGIN,
  ) =>
    fetch(`${be.url}/widget${path}`, {
      method,
      headers: {
        ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
        Origin: origin,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, headers: r.headers, body: await r.json() }));

  const WIDGET_ROUTES: ['GET' | 'POST', string, unknown?][] = [
    ['GET', '/session'],
    ['GET', '/next?wait=0'],
    ['POST', '/pay', payBody(card('approved').pan, { holder: 'A B' })],
    ['POST', '/method-result', { threeDSCompInd: 'Y', browser: BROWSER }],
    ['POST', '/cancel', { reason: 'shopper-left' }],
    ['POST', '/hosted', {}],
    ['POST', '/extend', { expiresAt: new Date().toISOString() }],
  ];

  /** Every widget route answers 401 to `token` and the database does not move. */
  async function refusedEverywhere(token: string | undefined, code = 'unauthorized') {
    const before = await snapshotTables(be.store.db, CHECKOUT_TABLES);
    for (const [method, path, body] of WIDGET_ROUTES) {
      const res = await widget(token, method, path, body);
      assert.equal(res.status, 401, `${method} ${path}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, code, `${method} ${path}`);
    }
    assert.deepEqual(await snapshotTables(be.store.db, CHECKOUT_TABLES), before);
  }

  describe('session tokens', () => {
    let session: { id: string; token: string; orderId: string };
    const claims = () => ({
      sub: session.id,
      aud: AUD,
      iss: ISS,
      exp: Math.floor(Date.now() / 1000) + 600,
      iat: Math.floor(Date.now() / 1000),
    });
    before(async () => {
      session = await createSession(be.url);
      // The genuine token works (the refusals below are about the token, not the route).
      const ok = await widget(session.token, 'GET', '/session');
      assert.equal(ok.status, 200);
      assert.equal(ok.body.id, session.id);
    });

    it('refuses a missing token, garbage, and a token with another scheme', async () => {
      await refusedEverywhere(undefined);
      await refusedEverywhere('not-a-jwt');
      const res = await fetch(`${be.url}/widget/session`, {
        headers: { Authorization: `Basic ${session.token}`, Origin: MERCHANT_ORIGIN },
      });
      assert.equal(res.status, 401);
    });

    it('refuses alg "none" (unsigned, with or without a trailing signature)', async () => {
      for (const alg of ['none', 'None', 'NONE']) {
        await refusedEverywhere(handMadeToken({ alg, typ: 'JWT' }, claims(), () => ''));
      }
      // The genuine signature glued onto an alg:none header.
      const sig = session.token.split('.')[2] ?? '';
      await refusedEverywhere(handMadeToken({ alg: 'none', typ: 'JWT' }, claims(), () => sig));
    });

    it('refuses RS256 tokens, and HS256 tokens keyed with a public key (HS/RS confusion)', async () => {
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      await refusedEverywhere(jwt.sign(claims(), privateKey, { algorithm: 'RS256' }));
      const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
      const sandboxPem = sb.sandbox.devCredentials?.publicKeyPem ?? '';
      for (const pem of [publicPem, sandboxPem]) {
        await refusedEverywhere(
          handMadeToken({ alg: 'HS256', typ: 'JWT' }, claims(), (input) =>
            createHmac('sha256', pem).update(input).digest('base64url'),
          ),
        );
      }
      // An RS256 header over an HMAC made with our own secret is refused too (alg is pinned).
      await refusedEverywhere(
        handMadeToken({ alg: 'RS256', typ: 'JWT' }, claims(), (input) =>
          createHmac('sha256', JWT_SECRET).update(input).digest('base64url'),
        ),
      );
      // HS512 with the right secret: not the pinned algorithm.
      await refusedEverywhere(jwt.sign(claims(), JWT_SECRET, { algorithm: 'HS512' }));
    });

    it('refuses an expired token with session-expired', async () => {
      const expired = jwt.sign(
        { ...claims(), exp: Math.floor(Date.now() / 1000) - 5 },
        JWT_SECRET,
        { algorithm: 'HS256' },
      );
      await refusedEverywhere(expired, 'session-expired');
    });

    it('refuses tokens for another session, audience, issuer or secret', async () => {
      await refusedEverywhere(
        jwt.sign({ ...claims(), sub: 'no-such-session' }, JWT_SECRET, { algorithm: 'HS256' }),
      );
      await refusedEverywhere(jwt.sign({ ...claims(), aud: 'merchant-api' }, JWT_SECRET));
      await refusedEverywhere(jwt.sign({ ...claims(), iss: 'someone-else' }, JWT_SECRET));
      const { sub: _sub, ...noSubject } = claims();
      await refusedEverywhere(jwt.sign(noSubject, JWT_SECRET));
      await refusedEverywhere(jwt.sign(claims(), `${JWT_SECRET}x`, { algorithm: 'HS256' }));
      // The merchant API key is not a session token, and a session token opens no merchant route.
      await refusedEverywhere(MERCHANT_API_KEY);
      const res = await fetch(`${be.url}/v1/orders/${session.orderId}`, {
        headers: { Authorization: `Bearer ${session.token}` },
      });
      assert.equal(res.status, 401);
    });

    it("a token reaches its own session only (another shopper's session is not visible)", async () => {
      const other = await createSession(be.url);
      const mine = await widget(session.token, 'GET', '/session');
      const theirs = await widget(other.token, 'GET', '/session');
      assert.equal(mine.body.id, session.id);
      assert.equal(theirs.body.id, other.id);
      assert.notEqual(mine.body.orderId, theirs.body.orderId);
      // The payload is readable: swapping its subject breaks the signature.
      const [h, , s] = session.token.split('.');
      const swapped = `${h}.${b64url(JSON.stringify({ ...claims(), sub: other.id }))}.${s}`;
      await refusedEverywhere(swapped);
    });
  });

  describe('CORS', () => {
    const EVIL = 'https://evil.example';

    it('answers a preflight from an allowed origin', async () => {
      const res = await fetch(`${be.url}/widget/pay`, {
        method: 'OPTIONS',
        headers: {
          Origin: MERCHANT_ORIGIN,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization,content-type',
        },
      });
      assert.equal(res.status, 204);
      assert.equal(res.headers.get('access-control-allow-origin'), MERCHANT_ORIGIN);
      assert.equal(res.headers.get('access-control-allow-credentials'), null);
    });

    it('refuses a preflight from a foreign origin (no CORS header at all)', async () => {
      for (const origin of [
        EVIL,
        'null',
        `${MERCHANT_ORIGIN}.evil.example`,
        MERCHANT_ORIGIN.replace('https', 'http'),
        `${MERCHANT_ORIGIN}:8443`,
      ]) {
        for (const path of ['/widget/pay', '/widget/session', '/widget/next']) {
          const res = await fetch(`${be.url}${path}`, {
            method: 'OPTIONS',
            headers: {
              Origin: origin,
              'Access-Control-Request-Method': 'POST',
              'Access-Control-Request-Headers': 'authorization,content-type',
            },
          });
          await res.arrayBuffer();
          assert.notEqual(res.status, 204, `${origin} ${path}`);
          for (const name of [
            'access-control-allow-origin',
            'access-control-allow-methods',
            'access-control-allow-headers',
            'access-control-allow-credentials',
          ]) {
            assert.equal(res.headers.get(name), null, `${name} for ${origin} ${path}`);
          }
        }
      }
    });

    it('echoes no Access-Control-Allow-Origin to a foreign page, and it cannot pay', async () => {
      const session = await createSession(be.url);
      const read = await widget(session.token, 'GET', '/session', undefined, EVIL);
      assert.equal(read.headers.get('access-control-allow-origin'), null);
      const before = await snapshotTables(be.store.db, ['orders', 'checkout_sessions']);
      const pay = await widget(
        session.token,
        'POST',
        '/pay',
        WIDGET_ROUTES[2]?.[2] as object,
        EVIL,
      );
      assert.equal(pay.status, 403);
      assert.equal(pay.headers.get('access-control-allow-origin'), null);
      assert.deepEqual(await snapshotTables(be.store.db, ['orders', 'checkout_sessions']), before);
      assert.deepEqual(await sandboxTransactions(sb, session.orderId), []);
    });

    it('the merchant API and return pages send no CORS grant to a foreign origin', async () => {
      const res = await fetch(`${be.url}/v1/orders/x`, {
        headers: { Origin: EVIL, Authorization: `Bearer ${MERCHANT_API_KEY}` },
      });
      await res.arrayBuffer();
      assert.equal(res.headers.get('access-control-allow-origin'), null);
      const ret = await fetch(`${be.url}/return/${'a'.repeat(20)}`, { headers: { Origin: EVIL } });
      await ret.arrayBuffer();
      assert.equal(ret.headers.get('access-control-allow-origin'), null);
    });
  });

  /** Pays a 3DS 2 challenge card up to the challenge step. */
  async function toChallenge(): Promise<{
    shopper: Shopper;
    session: { id: string; token: string; orderId: string };
    challenge: Extract<NextAction, { action: 'challenge' }>;
  }> {
    const session = await createSession(be.url);
    const shopper = new Shopper(be.url, session.token);
    let action = await shopper.until(await shopper.pay(card('3ds2-challenge')));
    assert.equal(action.action, 'method');
    if (action.action === 'method' && action.methodUrl && action.methodData) {
      await runMethod(action.methodUrl, action.methodData);
    }
    action = await shopper.until(await shopper.methodResult('Y'));
    assert.equal(action.action, 'challenge', JSON.stringify(action));
    return { shopper, session, challenge: action as Extract<NextAction, { action: 'challenge' }> };
  }

  /** The ACS part of a challenge: answers the form the ACS would post back to our return page. */
  async function acsAnswer(acsUrl: string, creq: string, otp: string) {
    const page = await postForm(acsUrl, { creq });
    const otpForm = parseForm(page.html, acsUrl);
    assert.ok(otpForm);
    const done = await postForm(otpForm.action, { ...otpForm.fields, otp, action: 'submit' });
    const back = parseForm(done.html, otpForm.action);
    assert.ok(back, done.html.slice(0, 300));
    return back;
  }

  describe('forged gateway callbacks and final redirects', () => {
    const control = (status: string, orderid: string, clientOrderId: string, key: string) =>
      createHash('sha1').update(`${status}${orderid}${clientOrderId}${key}`).digest('hex');

    it('a forged callback gets 403 and changes nothing', async () => {
      const { session } = await toChallenge();
      const order = await be.store.orders.getByClientOrderId(session.orderId);
      assert.ok(order?.gatewayOrderId);
      const gid = order.gatewayOrderId;
      const key = sb.sandbox.devCredentials?.controlKey ?? '';
      const otherOrder = await createSession(be.url);
      const forgeries: Record<string, string>[] = [
        { status: 'approved', orderid: gid, client_orderid: session.orderId },
        { status: 'approved', orderid: gid, client_orderid: session.orderId, control: '' },
        {
          status: 'approved',
          orderid: gid,
          client_orderid: session.orderId,
          control: 'deadbeef'.repeat(5),
        },
        {
          status: 'approved',
          orderid: gid,
          client_orderid: session.orderId,
          control: control('approved', gid, session.orderId, 'wrong-key'),
        },
        // Signed for "declined", claims "approved".
        {
          status: 'approved',
          orderid: gid,
          client_orderid: session.orderId,
          control: control('declined', gid, session.orderId, key),
        },
        // Signed for another order id.
        {
          status: 'approved',
          orderid: gid,
          client_orderid: session.orderId,
          control: control('approved', '1', otherOrder.orderId, key),
        },
        // Upper-case hex of a wrong value, and a control twice (array).
        {
          status: 'approved',
          orderid: gid,
          client_orderid: session.orderId,
          control: control('approved', gid, session.orderId, 'x').toUpperCase(),
        },
      ];
      const before = await snapshotTables(be.store.db, CHECKOUT_TABLES);
      for (const query of forgeries) {
        const res = await fetch(`${be.url}/callbacks/gateway?${new URLSearchParams(query)}`);
        assert.equal(res.status, 403, JSON.stringify(query));
        assert.equal(await res.text(), 'Forbidden');
      }
      const twice = await fetch(
        `${be.url}/callbacks/gateway?status=approved&orderid=${gid}&client_orderid=${session.orderId}&control=a&control=${control('approved', gid, session.orderId, key)}`,
      );
      assert.equal(twice.status, 403);
      assert.deepEqual(await snapshotTables(be.store.db, CHECKOUT_TABLES), before);
      const after = await be.store.orders.getByClientOrderId(session.orderId);
      assert.equal(after?.status, 'processing');
    });

    it('a forged final redirect to the return page gets 403 and changes nothing', async () => {
      const { session } = await toChallenge();
      const order = await be.store.orders.getByClientOrderId(session.orderId);
      assert.ok(order?.gatewayOrderId);
      const before = await snapshotTables(be.store.db, CHECKOUT_TABLES);
      const res = await postForm(`${be.url}/return/${order.returnRef}`, {
        status: 'approved',
        orderid: order.gatewayOrderId,
        client_orderid: session.orderId,
        control: control('approved', order.gatewayOrderId, session.orderId, 'wrong'),
      });
      assert.equal(res.status, 403);
      assert.match(res.html, /Nothing was changed/);
      assert.deepEqual(await snapshotTables(be.store.db, CHECKOUT_TABLES), before);
    });
  });

  describe('replayed 3DS returns', () => {
    it('the same cres twice uploads once; a post after the end changes nothing; both say so', async () => {
      const { shopper, session, challenge } = await toChallenge();
      const order = await be.store.orders.getByClientOrderId(session.orderId);
      assert.ok(order);
      const back = await acsAnswer(
        challenge.acsUrl,
        challenge.creq,
        card('3ds2-challenge').otp ?? '',
      );
      assert.ok(back.fields.cres);

      const first = await postForm(back.action, back.fields);
      assert.equal(first.status, 200);
      assert.equal(returnMessage(first.html).message.type, 'challenge-complete');
      assert.match(first.html, /Verification complete/);
      assert.equal(await historyCount(be, order.id, 'upload-cres-result'), 1);

      const replay = await postForm(back.action, back.fields);
      assert.equal(replay.status, 200);
      // "already received" while the gateway still works on it, "already finished" once the
      // sandbox's callback (20 ms later) has ended the order: which one is a race of no interest.
      assert.match(replay.html, /already (received|finished)\. Nothing was changed\./);
      assert.equal(await historyCount(be, order.id, 'upload-cres-result'), 1);

      const final = await shopper.until(await shopper.next(2));
      assert.equal(final.action, 'final');
      assert.equal(final.order.status, 'approved');
      const settled = await snapshotTables(be.store.db, ['orders', 'checkout_sessions']);

      // The same cres, a fresh forged one, and a PaRes after the order finished.
      for (const fields of [
        back.fields,
        { cres: 'eyJmb3JnZWQiOnRydWV9' },
        { PaRes: 'x', MD: 'y' },
      ]) {
        const late = await postForm(back.action, fields);
        assert.equal(late.status, 200);
        assert.match(late.html, /already finished\. Nothing was changed\./);
        assert.equal(returnMessage(late.html).message.type, 'final');
      }
      assert.equal(await historyCount(be, order.id, 'upload-cres-result'), 1);
      assert.deepEqual(await snapshotTables(be.store.db, ['orders', 'checkout_sessions']), settled);
      const charge = await exactlyOneCharge(sb, session.orderId);
      assert.equal(charge.status, 'approved');
    });

    it('a cres for an order that never asked for one changes nothing and says so', async () => {
      const session = await createSession(be.url);
      const shopper = new Shopper(be.url, session.token);
      const final = await shopper.complete(card('approved'));
      assert.equal(final.order.status, 'approved');
      const order = await be.store.orders.getByClientOrderId(session.orderId);
      assert.ok(order);
      const res = await postForm(`${be.url}/return/${order.returnRef}`, { cres: 'abc' });
      assert.equal(res.status, 200);
      assert.match(res.html, /Nothing was changed/);
      const unknown = await postForm(`${be.url}/return/${'Z'.repeat(32)}`, { cres: 'abc' });
      assert.equal(unknown.status, 404);
      assert.match(unknown.html, /Unknown payment\. Nothing was changed\./);
    });
  });

  describe('amount, currency and intent tampering from the browser', () => {
    it('refuses extra money fields in POST /widget/pay and charges nothing', async () => {
      const session = await createSession(be.url, { amount: '25.00', currency: 'EUR' });
      const before = await snapshotTables(be.store.db, CHECKOUT_TABLES);
      const tampered: object[] = [
        { ...payBody(), amount: '0.01' },
        { ...payBody(), amountMinor: 1 },
        { ...payBody(), currency: 'JPY' },
        { ...payBody(), intent: 'preauth' },
        { ...payBody(), order: { amount: '0.01' } },
        { ...payBody(), card: { ...payBody().card, amount: '0.01' } },
        { ...payBody(), browser: { ...BROWSER, currency: 'USD' } },
      ];
      for (const body of tampered) {
        const res = await widget(session.token, 'POST', '/pay', body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.error.code, 'validation');
      }
      assert.deepEqual(await snapshotTables(be.store.db, CHECKOUT_TABLES), before);
      assert.deepEqual(await sandboxTransactions(sb, session.orderId), []);
      const view = await widget(session.token, 'GET', '/session');
      assert.equal(view.body.state, 'open');
      assert.equal(view.body.amount, '25.00');
    });

    it('the gateway sale carries the session amount, whatever the query string says', async () => {
      const session = await createSession(be.url, { amount: '25.00', currency: 'EUR' });
      const res = await widget(
        session.token,
        'POST',
        '/pay?amount=0.01&currency=JPY&intent=preauth',
        payBody(),
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const shopper = new Shopper(be.url, session.token);
      const final = await shopper.until(res.body as NextAction);
      assert.equal(final.action, 'final');
      assert.equal(final.order.amount, '25.00');
      assert.equal(final.order.intent, 'sale');
      const charge = await exactlyOneCharge(sb, session.orderId);
      assert.equal(charge.kind, 'sale');
      assert.equal(charge.amountMinor, 2500);
      assert.equal(charge.currency, 'EUR');
      const order = await be.store.orders.getByClientOrderId(session.orderId);
      assert.ok(order);
      const sale = (await be.store.history.forOrder(order.id)).find((e) => e.operation === 'sale');
      assert.equal(sale?.request.amount, '25.00');
      assert.equal(sale?.request.currency, 'EUR');
    });
  });

  describe('no secret reaches a browser', () => {
    function assertClean(label: string, text: string) {
      for (const [name, secret] of Object.entries(secrets)) {
        assert.ok(!text.includes(secret), `${label} contains the ${name}`);
      }
      assert.doesNotMatch(text, /PRIVATE KEY/, `${label} contains a private key`);
    }

    it('no widget API answer, return page or merchant API answer holds a secret', async () => {
      // Make sure every kind of browser-facing answer was seen: walk each 3DS flavour once.
      for (const scenario of ['3ds2-challenge', '3ds1', 'declined', 'error']) {
        const session = await createSession(be.url);
        const shopper = new Shopper(be.url, session.token);
        await shopper.complete(card(scenario));
        await shopper.call('GET', '/session');
      }
      const hosted = await createSession(be.url);
      await new Shopper(be.url, hosted.token).call('POST', '/hosted', {});
      const kinds = new Set(seen.map((s) => new URL(s.url).pathname.split('/')[1]));
      for (const kind of ['widget', 'return', 'v1']) assert.ok(kinds.has(kind), kind);
      assert.ok(seen.length > 30, String(seen.length));
      for (const s of seen) assertClean(`${s.status} ${s.url}`, `${s.headers}\n${s.body}`);
    });

    it('no demo page or demo API answer holds a secret', async () => {
      const { createDemoRouter } = await import('../../demo/server.js');
      const app = express();
      app.use(
        createDemoRouter({
          merchantApiUrl: be.url,
          merchantApiKey: MERCHANT_API_KEY,
          shopUrl: 'http://localhost:3000',
          sandboxUrl: sb.origin,
          widgetFile: join(ROOT, 'dist/cdn/pay-checkout.js'),
          fetch: realFetch,
        }),
      );
      const { server, url } = await listen(app);
      try {
        const gets = ['/', '/index.html', '/tools.html', '/app.js', '/tools.js', '/styles.css'];
        gets.push('/demo/api/test-cards', '/pay-checkout.js');
        for (const path of gets) {
          const res = await realFetch(`${url}${path}`);
          const text = await res.text();
          if (path !== '/pay-checkout.js') assert.equal(res.status, 200, path);
          assertClean(`demo ${path}`, `${JSON.stringify([...res.headers])}\n${text}`);
        }
        const created = await realFetch(`${url}/demo/api/checkout`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ amount: '5.00', currency: 'EUR', intent: 'sale' }),
        });
        const body = await created.text();
        assert.equal(created.status, 201, body);
        assertClean('demo checkout', body);
        const op = await realFetch(`${url}/demo/api/operation/order-read`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ params: { orderId: JSON.parse(body).orderId } }),
        });
        assertClean('demo operation', await op.text());
      } finally {
        await closeServer(server as Server);
      }
    });

    it('the built widget (CDN file and ESM build) holds no secret', async () => {
      // The CDN file is the one the demo and the end-to-end tests serve (built once for all);
      // the ESM build is compiled here, into a folder of its own.
      await ensureWidgetBuilt(ROOT);
      const out = await mkdtemp(join(tmpdir(), 'pay-checkout-proof-build-'));
      try {
        const { execFileSync } = await import('node:child_process');
        execFileSync(
          join(ROOT, 'node_modules/.bin/tsc'),
          ['-p', join(ROOT, 'widget/tsconfig.build.json'), '--outDir', join(out, 'esm')],
          { cwd: ROOT, stdio: 'pipe' },
        );
        const files = (await readdir(out, { recursive: true, withFileTypes: true }))
          .filter((d) => d.isFile())
          .map((d) => join(d.parentPath, d.name));
        assert.ok(files.filter((f) => f.includes('/esm/') && f.endsWith('.js')).length > 5);
        const shipped = (
          await readdir(join(ROOT, 'dist'), { recursive: true, withFileTypes: true })
        )
          .filter((d) => d.isFile())
          .map((d) => join(d.parentPath, d.name))
          // dist/node is the server's own build (`pay-checkout/server`), which never reaches a browser.
          .filter((f) => !f.includes('/dist/node/'));
        assert.ok(shipped.some((f) => f.endsWith('cdn/pay-checkout.js')));
        const e2eSecrets = ['e2e_merchant_api_key_0123456789', 'e2e-jwt-secret-0123456789'];
        for (const file of [...files, ...shipped]) {
          const text = await readFile(file, 'utf8');
          assertClean(file, text);
          for (const s of [...e2eSecrets, 'SANDBOX-DEV-CONTROL-KEY']) {
            assert.ok(!text.includes(s), `${file} contains ${s}`);
          }
          assert.doesNotMatch(text, /MERCHANT_CONTROL_KEY|JWT_SECRET|MERCHANT_API_KEY/, file);
        }
      } finally {
        await rm(out, { recursive: true, force: true });
      }
    });
  });
});
