/**
 * A merchant's shop written against a client generated from `GET /v1/openapi.json` by a tool
 * nobody on this project wrote (@hey-api/openapi-ts: fetch client, SDK, types), with no hand
 * edit: the copy in test/support/generated-merchant-client/ must be exactly what the generator
 * makes of the live document (`UPDATE_GENERATED_CLIENT=1` on this file writes it again), and a
 * whole journey runs through it: create, read, list with a cursor, pay through the widget API,
 * capture part, return part, list the order's events, read a 400's field, verify a webhook.
 */
import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { generateMerchantClient } from '../../../scripts/generate-merchant-client.mjs';
import { createClient } from '../../support/generated-merchant-client/client/index.js';
import {
  captureOrder,
  createCheckoutSession,
  getOrder,
  listEvents,
  listOrders,
  returnOrder,
} from '../../support/generated-merchant-client/sdk.gen.js';
import type {
  CreateCheckoutSessionBody,
  Event,
  Order,
} from '../../support/generated-merchant-client/types.gen.js';
import {
  type Backend,
  MERCHANT_API_KEY,
  type Sandbox,
  startBackend,
  startSandbox,
} from '../../support/loopback-stack.js';
import { CUSTOMER, Shopper, uniqueOrderId } from '../../support/widget-api-client.js';

const COMMITTED = fileURLToPath(
  new URL('../../support/generated-merchant-client/', import.meta.url),
);
/** The server `npm start` documents: the generated client's default base URL. */
const DOCUMENTED_SERVER = 'http://localhost:5800';
const WEBHOOK_SECRET = 'generated-client-webhook-secret-0123456789';

async function filesOf(dir: string, under = ''): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(join(dir, under), { withFileTypes: true })) {
    const path = join(under, entry.name);
    if (entry.isDirectory()) for (const [p, t] of await filesOf(dir, path)) files.set(p, t);
    else files.set(path, await readFile(join(dir, path), 'utf8'));
  }
  return files;
}

/** What a shop in any language does with a delivery (docs/merchant-api.md), in plain node:crypto. */
function verified(rawBody: Buffer, header: string | undefined, secret: string): boolean {
  const parts = Object.fromEntries(
    (header ?? '').split(',').map((p) => p.split('=') as [string, string]),
  );
  const t = Number(parts.t);
  if (!parts.v1 || !Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

describe('a client generated from the OpenAPI document', () => {
  let sb: Sandbox;
  let be: Backend;
  let hook: Server;
  const deliveries: { body: Buffer; headers: IncomingHttpHeaders }[] = [];

  before(async () => {
    hook = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        deliveries.push({ body: Buffer.concat(chunks), headers: req.headers });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hooks`;
    sb = await startSandbox();
    be = await startBackend(sb, { config: { webhook: { url, secret: WEBHOOK_SECRET } } });
  });
  after(async () => {
    try {
      await be.close();
    } finally {
      await sb.close();
      hook.close();
    }
  });

  it('is exactly what the generator makes of the live document', async () => {
    const doc = (await (await fetch(`${be.url}/v1/openapi.json`)).json()) as Record<
      string,
      unknown
    >;
    const dir = await mkdtemp(join(tmpdir(), 'merchant-client-'));
    try {
      const input = join(dir, 'openapi.json');
      await writeFile(input, JSON.stringify({ ...doc, servers: [{ url: DOCUMENTED_SERVER }] }));
      await generateMerchantClient(input, join(dir, 'client'));
      if (process.env.UPDATE_GENERATED_CLIENT === '1') {
        await rm(COMMITTED, { recursive: true, force: true });
        await cp(join(dir, 'client'), COMMITTED, { recursive: true });
      }
      const fresh = await filesOf(join(dir, 'client'));
      const committed = await filesOf(COMMITTED);
      assert.deepEqual([...committed.keys()].sort(), [...fresh.keys()].sort());
      for (const [path, text] of fresh) {
        assert.ok(
          committed.get(path) === text,
          `${path} differs from a fresh generation: run UPDATE_GENERATED_CLIENT=1 node --import tsx --test ${fileURLToPath(import.meta.url)}`,
        );
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('runs a shop: create, read, list with a cursor, pay, capture, return, events, a webhook', async () => {
    const client = createClient({ baseUrl: be.url, auth: MERCHANT_API_KEY });
    const orderId = uniqueOrderId('gen');
    const body: CreateCheckoutSessionBody = {
      amount: '10.00',
      currency: 'EUR',
      orderId,
      intent: 'preauth',
      description: 'A generated client pays',
      customer: CUSTOMER,
    };
    const created = await createCheckoutSession({ client, body });
    assert.equal(created.response.status, 201, JSON.stringify(created.error));
    assert.equal(created.data?.orderId, orderId);

    const read = await getOrder({ client, path: { orderId } });
    const unpaid: Order | undefined = read.data;
    assert.equal(unpaid?.status, 'awaiting-payment');

    // A second order, then a page of one and the next page by its cursor.
    const other = uniqueOrderId('gen');
    assert.equal(
      (await createCheckoutSession({ client, body: { ...body, orderId: other } })).response.status,
      201,
    );
    const first = await listOrders({ client, query: { limit: 1 } });
    assert.equal(first.data?.orders.length, 1);
    assert.equal(first.data?.orders[0]?.orderId, other);
    const cursor = first.data?.nextCursor ?? undefined;
    assert.ok(cursor);
    const second = await listOrders({ client, query: { limit: 1, cursor } });
    assert.equal(second.data?.orders[0]?.orderId, orderId);

    // The 400 names its field, typed.
    const refused = await createCheckoutSession({
      client,
      body: { ...body, orderId: uniqueOrderId('gen'), currency: 'EUR', amount: '1.234' },
    });
    assert.equal(refused.response.status, 400);
    assert.equal(refused.error?.error.field, 'amount');

    const token = created.data?.token ?? '';
    const final = await new Shopper(be.url, token).complete({ pan: '4000000000000002' });
    assert.equal(final.order.status, 'approved');

    const capture = await captureOrder({ client, path: { orderId }, body: { amount: '6.00' } });
    assert.equal(capture.response.status, 200, JSON.stringify(capture.error));
    assert.equal(capture.data?.order.capturedAmount, '6.00');
    const refund = await returnOrder({ client, path: { orderId }, body: { amount: '2.50' } });
    assert.equal(refund.response.status, 200, JSON.stringify(refund.error));
    assert.equal(refund.data?.order.returnedAmount, '2.50');

    const events = await listEvents({ client, query: { orderId } });
    const list: Event[] = events.data?.events ?? [];
    assert.deepEqual(list.map((e) => e.type).sort(), [
      'capture.approved',
      'order.approved',
      'return.approved',
    ]);

    await be.checkout.deliverWebhooks();
    const approved = list.find((e) => e.type === 'order.approved');
    const delivery = deliveries.find((d) => d.headers['pay-checkout-event-id'] === approved?.id);
    assert.ok(delivery, 'the order.approved event was delivered');
    const signature = delivery.headers['pay-checkout-signature'] as string | undefined;
    assert.ok(verified(delivery.body, signature, WEBHOOK_SECRET));
    assert.equal(
      verified(Buffer.concat([delivery.body, Buffer.from(' ')]), signature, WEBHOOK_SECRET),
      false,
    );
    assert.equal(verified(delivery.body, signature, 'another-secret'), false);
    const event = JSON.parse(delivery.body.toString('utf8')) as Event;
    assert.equal((event.data.order as { orderId?: string }).orderId, orderId);
  });
});
