/**
 * Fuzz proofs: thousands of seeded random and malformed requests (methods, paths, headers,
 * encodings, bodies) against every route of the companion backend and of the sandbox, in-process
 * over loopback HTTP. No answer may be a 5xx or a dropped connection, a rejected request may not
 * change a row, the servers keep answering, and memory stays flat. A failure prints its seed:
 * FUZZ_SEED=<seed> reproduces it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import jwt from 'jsonwebtoken';
import { OPERATIONS } from '../../server/src/sandbox/operations/index.js';
import {
  describeAnswer,
  enc,
  encodeBody,
  type FuzzAnswer,
  type FuzzRequest,
  int,
  mutate,
  noisyPath,
  pick,
  type Rand,
  randomJson,
  randomString,
  runFuzz,
} from './support/fuzz.js';
import {
  BROWSER,
  CHECKOUT_TABLES,
  card,
  createSession,
  JWT_SECRET,
  MERCHANT_API_KEY,
  MERCHANT_ORIGIN,
  type Pair,
  payBody,
  prng,
  SANDBOX_TABLES,
  Shopper,
  snapshotTables,
  startPair,
} from './support/proof.js';

const SEED = Number(process.env.FUZZ_SEED ?? 0x5eed) >>> 0;
const BUDGET_MS = 2_500;
const MAX = 4_000;
/** Every phase sends at least this many requests, however slow the machine. */
const MIN = 400;

function memoryMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss / 1024 / 1024;
}

function serverFaults(answers: FuzzAnswer[]): string[] {
  return answers.filter((a) => a.status >= 500 || (a.status === 0 && a.error)).map(describeAnswer);
}

describe(`fuzz proofs (seed ${SEED})`, () => {
  let pair: Pair;
  let startRss = 0;
  const tokens: string[] = [];
  const ids: string[] = [];
  const refs: string[] = [];

  before(async () => {
    pair = await startPair(
      {},
      {
        widgetLimits: { perIp: 1e9, perSession: 1e9 },
        publicLimits: { returnPerIp: 1e9, callbacksPerIp: 1e9, failedAuthPerIp: 1e9 },
      },
    );
    const { be } = pair;
    // Real things for paths and tokens to point at: an open session, a finished order, and
    // an order waiting on a 3DS challenge.
    const open = await createSession(be.url);
    const paid = await createSession(be.url);
    await new Shopper(be.url, paid.token).complete(card('approved'));
    const waiting = await createSession(be.url);
    // Followed until the bank's page is the next step, so that neither the sandbox (which moves
    // the transaction on after its processing delay) nor the backend changes a row by itself
    // while the fuzzer runs and the tables are compared.
    const shopper = new Shopper(be.url, waiting.token);
    assert.equal((await shopper.until(await shopper.pay(card('3ds1')))).action, '3ds1');
    await pair.sb.sandbox.idle();
    for (const s of [open, paid, waiting]) {
      tokens.push(s.token);
      ids.push(s.id, s.orderId);
      const order = await be.store.orders.getByClientOrderId(s.orderId);
      if (order) {
        refs.push(order.returnRef);
        ids.push(order.id, order.gatewayOrderId ?? '');
      }
    }
    startRss = memoryMb();
  });
  after(async () => {
    await pair.close();
  });

  const forgedTokens = (r: Rand) =>
    pick(r, [
      '',
      'Bearer',
      'Bearer ',
      `Bearer ${randomString(r)}`,
      `Bearer ${MERCHANT_API_KEY}x`,
      `Basic ${Buffer.from('a:b').toString('base64')}`,
      `Bearer ${jwt.sign({ sub: pick(r, ids), aud: 'pay-checkout-widget', iss: 'pay-checkout' }, 'wrong-secret-0123456789-0123456789')}`,
      `Bearer eyJhbGciOiJub25lIn0.${Buffer.from(JSON.stringify({ sub: pick(r, ids) })).toString('base64url')}.`,
      `Bearer ${jwt.sign({ sub: pick(r, ids), aud: 'pay-checkout-widget', iss: 'pay-checkout', exp: 1 }, JWT_SECRET)}`,
      `Bearer ${'A'.repeat(int(r, 1, 9000))}`,
    ]);

  const validPay = () => payBody(card('approved').pan, { holder: 'A B' });
  const validSession = () => ({
    amount: '10.42',
    currency: 'EUR',
    orderId: `fz-${Math.random().toString(36).slice(2)}`,
    intent: 'sale',
    description: 'x',
    customer: { email: 'a@b.example' },
    returnUrl: 'https://shop.example/x',
  });

  async function backendRoutes(): Promise<{ method: string; path: string; body?: unknown }[]> {
    const res = await fetch(`${pair.be.url}/v1/openapi.json`);
    const doc = (await res.json()) as { paths: Record<string, Record<string, unknown>> };
    const routes: { method: string; path: string; body?: unknown }[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const method of Object.keys(methods)) {
        routes.push({
          method: method.toUpperCase(),
          path: path.startsWith('/v1/') ? path : `/v1${path}`,
        });
      }
    }
    assert.ok(routes.length >= 10, `only ${routes.length} merchant routes in the OpenAPI document`);
    routes.push(
      { method: 'POST', path: '/v1/checkout-sessions', body: validSession() },
      { method: 'GET', path: '/widget/session' },
      { method: 'GET', path: '/widget/next' },
      { method: 'POST', path: '/widget/pay', body: validPay() },
      {
        method: 'POST',
        path: '/widget/method-result',
        body: { threeDSCompInd: 'Y', browser: BROWSER },
      },
      { method: 'POST', path: '/widget/cancel', body: { reason: 'shopper-left' } },
      { method: 'POST', path: '/widget/hosted', body: {} },
      { method: 'POST', path: '/widget/extend', body: { expiresAt: new Date().toISOString() } },
      { method: 'POST', path: '/return/{ref}', body: { cres: 'x' } },
      { method: 'GET', path: '/return/{ref}' },
      { method: 'GET', path: '/callbacks/gateway' },
      { method: 'GET', path: '/healthz' },
      { method: 'GET', path: '/readyz' },
      { method: 'GET', path: '/v1/openapi.json' },
      { method: 'GET', path: '/nope' },
    );
    return routes;
  }

  function fill(r: Rand, path: string, useReal: boolean): string {
    return path.replace(/\{[^}]+\}|:[A-Za-z]+/g, () =>
      useReal && r() < 0.6 ? enc(pick(r, [...ids, ...refs])) : enc(randomString(r)).slice(0, 3000),
    );
  }

  function commonHeaders(r: Rand): Record<string, string> {
    const h: Record<string, string> = {};
    if (r() < 0.6) h.origin = pick(r, [MERCHANT_ORIGIN, 'https://evil.example', 'null', '']);
    if (r() < 0.3)
      h['idempotency-key'] = pick(r, [randomString(r), `k-${Math.random()}`, 'x'.repeat(300)]);
    if (r() < 0.2) h['x-request-id'] = randomString(r);
    if (r() < 0.2)
      h.accept = pick(r, ['*/*', 'text/html', 'application/vnd.pay+json', randomString(r)]);
    if (r() < 0.1)
      h['x-forwarded-for'] = pick(r, ['1.2.3.4', 'garbage', '::1, 2.2.2.2', randomString(r)]);
    if (r() < 0.1) h['transfer-encoding'] = 'identity';
    if (r() < 0.05) h['access-control-request-method'] = 'POST';
    // Header values must be latin-1 for the client to send them at all.
    for (const [k, v] of Object.entries(h)) h[k] = v.replace(/[^\t\x20-\x7e\x80-\xff]/g, '?');
    return h;
  }

  function backendRequest(
    r: Rand,
    routes: { method: string; path: string; body?: unknown }[],
    authenticated: boolean,
  ): FuzzRequest {
    const route = pick(r, routes);
    const method =
      r() < 0.85
        ? route.method
        : pick(r, ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD']);
    let path = fill(r, route.path, authenticated || route.path.startsWith('/return'));
    if (route.path === '/callbacks/gateway') {
      const q = new URLSearchParams();
      for (const name of ['status', 'orderid', 'client_orderid', 'control', 'type', 'amount']) {
        if (r() < 0.7) q.append(name, r() < 0.4 ? pick(r, ids) : randomString(r));
      }
      path += `?${q}`;
    }
    path = noisyPath(r, path);
    const headers = commonHeaders(r);
    if (authenticated) {
      headers.authorization = path.startsWith('/widget')
        ? `Bearer ${pick(r, tokens)}`
        : `Bearer ${MERCHANT_API_KEY}`;
      if (r() < 0.1) headers.authorization = forgedTokens(r);
    } else if (r() < 0.9) {
      headers.authorization = forgedTokens(r);
    }
    let body: Buffer | undefined;
    if (method !== 'GET' && method !== 'HEAD' && r() < 0.95) {
      const value = route.body && r() < 0.7 ? mutate(r, route.body) : randomJson(r);
      const encoded = encodeBody(r, value);
      body = encoded.body;
      Object.assign(headers, encoded.headers);
    }
    return { method, path, headers, body };
  }

  it('the backend: forged credentials and random input are refused, change nothing, never 5xx', async () => {
    const { be, db } = pair;
    const routes = await backendRoutes();
    const tables = [...CHECKOUT_TABLES, ...SANDBOX_TABLES];
    const before = await snapshotTables(db, tables);
    const r = prng(SEED);
    const answers = await runFuzz(be.url, () => backendRequest(r, routes, false), {
      budgetMs: BUDGET_MS,
      min: MIN,
      max: MAX,
      concurrency: 6,
    });
    assert.ok(answers.length >= MIN, `only ${answers.length} requests`);
    assert.deepEqual(serverFaults(answers), [], `seed ${SEED}`);
    // Only the public documents and health answer 2xx without credentials.
    const public2xx = /^\/(healthz|readyz|v1\/openapi\.json|widget\/openapi\.json)(\?|\/?$)/i;
    const accepted = answers.filter(
      (a) =>
        a.status >= 200 &&
        a.status < 300 &&
        a.request.method !== 'OPTIONS' &&
        !public2xx.test(a.request.path) &&
        !a.request.path.toLowerCase().startsWith('/return/'),
    );
    assert.deepEqual(accepted.map(describeAnswer), [], `seed ${SEED}`);
    await pair.sb.sandbox.idle();
    assert.deepEqual(
      await snapshotTables(db, tables),
      before,
      `seed ${SEED}: a refused request changed a row`,
    );
    const health = await fetch(`${be.url}/healthz`);
    assert.equal(health.status, 200);
    console.log(`backend, forged: ${answers.length} requests`);
  });

  it('the backend: valid credentials with random bodies never get a 5xx', async () => {
    const { be, db } = pair;
    const routes = await backendRoutes();
    const business = ['orders', 'checkout_sessions', 'merchant_operations', 'gateway_callbacks'];
    const before = await snapshotTables(db, business);
    const r = prng(SEED + 1);
    const answers = await runFuzz(be.url, () => backendRequest(r, routes, true), {
      budgetMs: BUDGET_MS,
      min: MIN,
      max: MAX,
      concurrency: 6,
    });
    assert.ok(answers.length >= MIN, `only ${answers.length} requests`);
    assert.deepEqual(serverFaults(answers), [], `seed ${SEED + 1}`);
    const acceptedWrites = answers.filter(
      (a) => a.status >= 200 && a.status < 300 && a.request.method === 'POST',
    );
    if (acceptedWrites.length === 0) {
      assert.deepEqual(await snapshotTables(db, business), before, `seed ${SEED + 1}`);
    }
    const health = await fetch(`${be.url}/healthz`);
    assert.equal(health.status, 200);
    console.log(
      `backend, authenticated: ${answers.length} requests, ${acceptedWrites.length} accepted writes`,
    );
  });

  it('the sandbox: random gateway calls, ACS and admin requests are refused, change nothing, never 5xx', async () => {
    const { sb, db } = pair;
    const paths: { method: string; path: string }[] = [];
    for (const def of OPERATIONS) {
      paths.push({ method: 'POST', path: `/paynet/${def.path}/{endpoint}` });
      if (def.group) paths.push({ method: 'POST', path: `/paynet/${def.path}/group/{group}` });
    }
    paths.push(
      { method: 'POST', path: '/paynet/acs/3ds-method' },
      { method: 'POST', path: '/paynet/acs/challenge' },
      { method: 'POST', path: '/paynet/acs/challenge/complete' },
      { method: 'POST', path: '/paynet/acs/3ds1' },
      { method: 'POST', path: '/paynet/acs/3ds1/complete' },
      { method: 'GET', path: '/paynet/form/{token}' },
      { method: 'POST', path: '/paynet/form/{token}' },
      { method: 'POST', path: '/paynet/form/{token}/3ds' },
      { method: 'GET', path: '/sandbox/test-cards' },
      { method: 'GET', path: '/sandbox/faults' },
      { method: 'GET', path: '/sandbox/callbacks/{orderid}' },
      { method: 'GET', path: '/sandbox/payer/{orderid}' },
      { method: 'GET', path: '/paynet/sandbox/test-cards' },
      { method: 'GET', path: '/nope' },
    );
    const saleFields = {
      client_orderid: 'fz-1',
      order_desc: 'x',
      amount: '10.42',
      currency: 'EUR',
      address1: 'a',
      city: 'b',
      zip_code: '1',
      country: 'GB',
      phone: '1',
      email: 'a@b.example',
      ipaddress: '1.2.3.4',
      card_printed_name: 'A B',
      credit_card_number: card('approved').pan,
      expire_month: '12',
      expire_year: '2030',
      cvv2: '123',
      redirect_url: 'https://shop.example/r',
      server_callback_url: 'https://shop.example/c',
      control: 'a'.repeat(40),
      login: 'sandbox-merchant',
      orderid: '7000001',
      creq: 'x',
      cres: 'x',
      threeDSMethodData: 'x',
      PaReq: 'x',
      MD: 'x',
      otp: '1234',
      action: 'submit',
    };
    const r = prng(SEED + 2);
    const make = (): FuzzRequest => {
      const route = pick(r, paths);
      const method = r() < 0.85 ? route.method : pick(r, ['GET', 'PUT', 'DELETE', 'OPTIONS']);
      let path = route.path
        .replace('{endpoint}', pick(r, ['1111', '1111', '2222', '9999', 'abc', '', '1'.repeat(30)]))
        .replace('{group}', pick(r, ['2222', '1111', '0']))
        .replace(/\{[a-z]+\}/, () => enc(pick(r, [...ids, randomString(r)])).slice(0, 3000));
      path = noisyPath(r, path);
      const headers: Record<string, string> = {};
      if (r() < 0.7) headers.accept = 'application/vnd.pay+json';
      if (r() < 0.3) {
        headers.authorization = pick(r, [
          'OAuth oauth_consumer_key="sandbox-merchant", oauth_signature_method="HMAC-SHA1", oauth_signature="x", oauth_nonce="n", oauth_timestamp="1", oauth_version="1.0"',
          `OAuth ${randomString(r)}`,
          'OAuth realm="x"',
          randomString(r),
        ]).replace(/[^\t\x20-\x7e]/g, '?');
      }
      let body: Buffer | undefined;
      if (method === 'POST') {
        const value = r() < 0.7 ? mutate(r, mutate(r, saleFields)) : randomJson(r);
        const roll = r();
        if (roll < 0.7) {
          const form = new URLSearchParams();
          if (value && typeof value === 'object') {
            for (const [k, v] of Object.entries(value)) {
              form.append(k, typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));
            }
          }
          body = Buffer.from(form.toString());
          headers['content-type'] = 'application/x-www-form-urlencoded';
        } else {
          const encoded = encodeBody(r, value);
          body = encoded.body;
          Object.assign(headers, encoded.headers);
        }
      }
      return { method, path, headers, body };
    };
    const before = await snapshotTables(db, SANDBOX_TABLES);
    const faultsBefore = JSON.stringify(sb.sandbox.faults.snapshot());
    const answers = await runFuzz(sb.origin, make, {
      budgetMs: BUDGET_MS,
      min: MIN,
      max: MAX,
      concurrency: 6,
    });
    assert.ok(answers.length >= MIN, `only ${answers.length} requests`);
    assert.deepEqual(serverFaults(answers), [], `seed ${SEED + 2}`);
    const accepted = answers.filter(
      (a) =>
        a.status >= 200 &&
        a.status < 300 &&
        a.request.method === 'POST' &&
        a.request.path.includes('/api/'),
    );
    assert.deepEqual(accepted.map(describeAnswer), [], `seed ${SEED + 2}`);
    await sb.sandbox.idle();
    assert.deepEqual(await snapshotTables(db, SANDBOX_TABLES), before, `seed ${SEED + 2}`);
    assert.equal(JSON.stringify(sb.sandbox.faults.snapshot()), faultsBefore);
    const cards = await fetch(`${sb.origin}/sandbox/test-cards`);
    assert.equal(cards.status, 200);
    console.log(`sandbox: ${answers.length} requests`);
  });

  it('memory stays flat across the fuzzing', () => {
    const growth = memoryMb() - startRss;
    console.log(`rss growth ${growth.toFixed(1)} MB`);
    assert.ok(growth < 250, `rss grew by ${growth.toFixed(1)} MB`);
  });
});
