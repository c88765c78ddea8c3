/**
 * Every route of the merchant API, walked through the answers every route can give (no key, bad
 * input, a bad Idempotency-Key, a body too large, an unknown id, a key reused with another body,
 * a method the path does not take, too many requests without a key): each answer must be one its
 * operation lists in `GET /v1/openapi.json`, with the body listed for it (the test stack's
 * AnswerChecker, test/support/openapi-answers.ts), and the walk must have met each of them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Backend,
  type Sandbox,
  startBackend,
  startSandbox,
} from '../../../../support/loopback-stack.js';
import { CUSTOMER, merchant, uniqueOrderId } from '../../../../support/widget-api-client.js';

interface Operation {
  method: 'GET' | 'POST';
  template: string;
  operationId: string;
  hasBody: boolean;
  hasQuery: boolean;
  responses: string[];
}

/** A body every route with path parameters takes, so that only the unknown id is wrong. */
const VALID_BODY: Record<string, unknown> = {
  resolveOperation: { status: 'approved', note: 'checked in the back office' },
};

describe('merchant API: every answer of every route is in the OpenAPI document', () => {
  let sb: Sandbox;
  let be: Backend;
  let operations: Operation[] = [];
  before(async () => {
    sb = await startSandbox();
    be = await startBackend(sb);
    const doc = (await (await fetch(`${be.url}/v1/openapi.json`)).json()) as {
      paths: Record<
        string,
        Record<
          string,
          {
            operationId: string;
            requestBody?: unknown;
            parameters?: { in?: string }[];
            responses: Record<string, unknown>;
          }
        >
      >;
    };
    operations = Object.entries(doc.paths).flatMap(([template, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        method: method.toUpperCase() as 'GET' | 'POST',
        template,
        operationId: op.operationId,
        hasBody: op.requestBody !== undefined,
        hasQuery: (op.parameters ?? []).some((p) => p.in === 'query'),
        responses: Object.keys(op.responses),
      })),
    );
    assert.ok(operations.length >= 30, `${operations.length} operations`);
  });
  after(async () => {
    try {
      await be.close();
    } finally {
      await sb.close();
    }
  });

  it('names each shared schema once: every $ref resolves, every named schema is used', async () => {
    const doc = (await (await fetch(`${be.url}/v1/openapi.json`)).json()) as {
      components: Record<string, Record<string, unknown>>;
    };
    const text = JSON.stringify(doc);
    const refs = new Set(
      [...text.matchAll(/"\$ref":"#\/components\/([^/]+)\/([^"]+)"/g)].map(
        (m) => `${m[1]}/${m[2]}`,
      ),
    );
    for (const ref of refs) {
      const [group = '', name = ''] = ref.split('/');
      assert.ok(doc.components[group]?.[name], `${ref} resolves`);
    }
    for (const name of Object.keys(doc.components.schemas ?? {})) {
      assert.ok(refs.has(`schemas/${name}`), `${name} is used`);
    }
    for (const name of [
      'Order',
      'Operation',
      'Event',
      'Customer',
      'CheckoutSession',
      'ErrorResponse',
    ]) {
      assert.ok(doc.components.schemas?.[name], name);
    }
    // One Order: no inline copy of it anywhere (its first field's description appears once).
    assert.equal(text.split('"attempts":{"type":"array"').length - 1, 1);
  });

  const pathOf = (op: Operation) => op.template.replace(/\{[^}]+\}/g, 'no-such-id');

  it('answers 401 without the key, 400 naming the field for bad input, 404 for an unknown id', async () => {
    for (const op of operations) {
      const path = pathOf(op);
      const body = op.method === 'POST' ? (VALID_BODY[op.operationId] ?? {}) : undefined;
      const stranger = await merchant(be.url, op.method, path, body, { Authorization: 'Basic x' });
      assert.equal(stranger.status, 401, `${op.operationId} without a key`);
      assert.equal(stranger.body.error.code, 'unauthorized');

      if (op.hasBody) {
        const bad = await merchant(be.url, 'POST', path, { notAField: 1 });
        assert.equal(bad.status, 400, `${op.operationId}: ${JSON.stringify(bad.body)}`);
        assert.equal(bad.body.error.code, 'validation');
        assert.ok(bad.body.error.field, `${op.operationId} names the field`);
      }
      if (op.hasQuery) {
        const bad = await merchant(be.url, 'GET', `${path}?limit=0`);
        assert.equal(bad.status, 400, op.operationId);
        assert.equal(bad.body.error.field, 'limit');
        const cursor = await merchant(be.url, 'GET', `${path}?cursor=AAAA`);
        assert.equal(cursor.status, 400, op.operationId);
        assert.equal(cursor.body.error.field, 'cursor');
      }
      if (op.template.includes('{')) {
        const unknown = await merchant(be.url, op.method, path, body);
        assert.equal(unknown.status, 404, `${op.operationId}: ${JSON.stringify(unknown.body)}`);
        assert.equal(unknown.body.error.code, 'not-found');
      }
      if (op.method === 'POST') {
        const key = await merchant(be.url, 'POST', path, body, { 'Idempotency-Key': 'a b' });
        assert.equal(key.status, 400, op.operationId);
        assert.equal(key.body.error.field, 'Idempotency-Key');
        const large = await fetch(`${be.url}${path}`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${be.config.merchantApiKey}`,
            'Content-Type': 'application/json',
          },
          body: JSON.stringify({ padding: 'x'.repeat(40_000) }),
        });
        assert.equal(large.status, 413, op.operationId);
        assert.equal(
          ((await large.json()) as { error: { code: string } }).error.code,
          'payload-too-large',
        );
      }
    }
    assert.deepEqual(be.answers?.violations, []);
  });

  it('answers a key reused with another body with 422 idempotency-conflict', async () => {
    const body = {
      amount: '1.00',
      currency: 'EUR',
      orderId: uniqueOrderId(),
      description: 'x',
      customer: CUSTOMER,
    };
    const headers = { 'Idempotency-Key': `walk-${uniqueOrderId()}` };
    const first = await merchant(be.url, 'POST', '/v1/checkout-sessions', body, headers);
    assert.equal(first.status, 201);
    const other = { ...body, orderId: uniqueOrderId() };
    const again = await merchant(be.url, 'POST', '/v1/checkout-sessions', other, headers);
    assert.equal(again.status, 422);
    assert.equal(again.body.error.code, 'idempotency-conflict');
    assert.deepEqual(be.answers?.violations, []);
  });

  it('answers a method a path does not take with 405 and Allow, and OPTIONS with Allow', async () => {
    const del = await fetch(`${be.url}/v1/orders/some-order`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${be.config.merchantApiKey}` },
    });
    assert.equal(del.status, 405);
    assert.equal(del.headers.get('allow'), 'GET, HEAD, OPTIONS');
    assert.equal(
      ((await del.json()) as { error: { code: string } }).error.code,
      'method-not-allowed',
    );
    // /payouts/check is not payout `check`: only its own POST.
    const get = await merchant(be.url, 'GET', '/v1/payouts/check');
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST, OPTIONS');
    const options = await fetch(`${be.url}/v1/payouts/check`, {
      method: 'OPTIONS',
      headers: { Authorization: `Bearer ${be.config.merchantApiKey}` },
    });
    assert.equal(options.status, 204);
    assert.equal(options.headers.get('allow'), 'POST, OPTIONS');
    const payout = await fetch(`${be.url}/v1/payouts/p-1`, {
      method: 'OPTIONS',
      headers: { Authorization: `Bearer ${be.config.merchantApiKey}` },
    });
    assert.equal(payout.headers.get('allow'), 'GET, HEAD, OPTIONS');
    // A payout may not take that id, so no payout is ever unreadable.
    const named = await merchant(be.url, 'POST', '/v1/payouts', {
      orderId: 'check',
      amount: '1.00',
      currency: 'EUR',
      phone: '+441234567890',
    });
    assert.equal(named.status, 400);
    assert.equal(named.body.error.field, 'orderId');
  });

  it('answers 429 with Retry-After once requests without a key pass the limit', async () => {
    const limited = await startBackend(sb, { publicLimits: { failedAuthPerIp: 2 } });
    try {
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 3; i++) {
        const res = await merchant(limited.url, 'GET', '/v1/orders', undefined, {
          Authorization: 'Bearer wrong',
        });
        statuses.push(res.status);
        retryAfter = res.headers.get('retry-after');
        if (res.status === 429) assert.equal(res.body.error.code, 'rate-limited');
      }
      assert.deepEqual(statuses, [401, 401, 429]);
      assert.match(retryAfter ?? '', /^\d+$/);
    } finally {
      // Closing fails on an answer the document does not list; after it, every answer was seen.
      await limited.close();
    }
    assert.ok(limited.answers?.seen.has('GET /v1/orders 429'));
  });
});
