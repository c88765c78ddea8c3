/**
 * A card reference the merchant forgot is charged no more through this backend: a rebill, a
 * recurring payment or a transfer that names it is a 409 `card-ref-forgotten` naming the field and
 * the reference, with no request to the gateway, nothing recorded and nothing queued. A reference
 * this backend never held (made elsewhere) and one it holds and has not forgotten are charged as
 * before. A forget that crosses a charge being sent is refused for now, until that charge's answer.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import type { FetchLike } from '../../../../server/src/gateway/index.js';
import type { MerchantOperationKind } from '../../../../server/src/store/index.js';
import {
  type Backend,
  type Sandbox,
  startBackend,
  startSandbox,
} from '../../../support/loopback-stack.js';
import {
  dumpStore,
  pgliteStore,
  postgresStore,
  TEST_DATABASE_URL,
  type TestStore,
} from '../../../support/stores.js';
import {
  CUSTOMER,
  createSession,
  merchant,
  Shopper,
  uniqueOrderId,
} from '../../../support/widget-api-client.js';

/** A merchant route that charges a card reference: the field naming it, and a body of it. */
interface ChargeRoute {
  path: string;
  kind: MerchantOperationKind;
  field: string;
  /** The gateway operation it sends, as the last-but-one segment of its path. */
  gatewayOperation: string;
  okStatus: number;
  body(cardRefId: string, orderId: string): Record<string, unknown>;
}

const ROUTES: ChargeRoute[] = [
  {
    path: '/v1/rebills',
    kind: 'rebill',
    field: 'cardRefId',
    gatewayOperation: 'make-rebill',
    okStatus: 200,
    body: (cardRefId, orderId) => ({ cardRefId, orderId, amount: '5.00', currency: 'EUR' }),
  },
  {
    path: '/v1/recurring-payments',
    kind: 'recurring-payment',
    field: 'cardRefId',
    gatewayOperation: 'create-recurring-payment',
    okStatus: 201,
    body: (cardRefId, orderId) => ({
      cardRefId,
      orderId,
      email: CUSTOMER.email,
      amount: '9.99',
      currency: 'EUR',
      period: 'day',
      interval: 1,
    }),
  },
  {
    path: '/v1/transfers',
    kind: 'transfer',
    field: 'sourceCardRefId',
    gatewayOperation: 'transfer-by-ref',
    okStatus: 200,
    body: (sourceCardRefId, orderId) => ({
      orderId,
      amount: '3.00',
      currency: 'EUR',
      description: 'Transfer',
      sourceCardRefId,
      destinationCardNumber: '4000000000000002',
    }),
  },
];

/** The gateway operations the backend sent, in order; one of them may be held until released. */
/** A connection of its own to the test database, to watch the backend's connections wait. */
async function postgresObserver(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  return client;
}

const sent: string[] = [];
let hold: { operation: string; reached: () => void; released: Promise<void> } | undefined;
const recording: FetchLike = async (url, init) => {
  const operation = new URL(url).pathname.split('/').at(-2) ?? '';
  sent.push(operation);
  if (hold && hold.operation === operation) {
    const { reached, released } = hold;
    hold = undefined;
    reached();
    await released;
  }
  return fetch(url, init);
};

for (const testStore of [pgliteStore(), postgresStore('forgotten_refused')] as TestStore[]) {
  describe(`a forgotten card reference is charged no more (${testStore.kind})`, () => {
    let sb: Sandbox;
    let be: Backend;
    /** Another backend on the same gateway merchant, with a store of its own. */
    let elsewhere: Backend;
    before(async () => {
      sb = await startSandbox();
      be = await startBackend(sb, {
        store: await testStore.open(),
        gatewayFetch: recording,
        config: { webhook: { url: 'http://127.0.0.1:9/hook', secret: 'whsec-test-0123456789' } },
      });
      elsewhere = await startBackend(sb);
    });
    after(async () => {
      await elsewhere?.close();
      await be?.close();
      await be?.store.close();
      await sb?.close();
      await testStore.cleanup();
    });

    /** A card reference that `instance` made from an approved sale of its own. */
    async function cardRefOf(instance: Backend): Promise<string> {
      const session = await createSession(instance.url);
      const final = await new Shopper(instance.url, session.token).complete({
        pan: '4000000000000002',
      });
      assert.equal(final.order.status, 'approved');
      const made = await merchant(
        instance.url,
        'POST',
        `/v1/orders/${session.orderId}/card-ref`,
        {},
      );
      assert.equal(made.status, 201, JSON.stringify(made.body));
      return made.body.cardRefId;
    }

    async function forgottenRef(): Promise<string> {
      const ref = await cardRefOf(be);
      const forgot = await merchant(be.url, 'POST', `/v1/card-refs/${ref}/forget`, {});
      assert.equal(forgot.status, 200, JSON.stringify(forgot.body));
      assert.equal(forgot.body.forgotten, true);
      return ref;
    }

    /** What the sandbox has recorded: transactions and recurring payments. */
    async function sandboxRows(): Promise<number[]> {
      const count = async (table: string) =>
        (
          await sb.sandbox.store.db.query<{ n: number }>(
            `select count(*)::int as n from ${table}`,
            [],
          )
        ).rows[0]?.n ?? -1;
      return [await count('sandbox_transactions'), await count('sandbox_recurring_payments')];
    }

    /** Charges `ref` through `route` and expects it charged as before, with one gateway request. */
    async function charged(route: ChargeRoute, ref: string) {
      const orderId = uniqueOrderId(route.kind);
      const before = sent.length;
      const res = await merchant(be.url, 'POST', route.path, route.body(ref, orderId));
      assert.equal(res.status, route.okStatus, JSON.stringify(res.body));
      assert.equal(res.body.kind, route.kind);
      assert.notEqual(res.body.status, 'error');
      assert.deepEqual(sent.slice(before, before + 1), [route.gatewayOperation]);
      const op = await be.store.operations.getByClientId(route.kind, orderId);
      assert.ok(op, 'the operation is recorded');
    }

    for (const route of ROUTES) {
      describe(`POST ${route.path}`, () => {
        it(`a forgotten reference: 409 card-ref-forgotten naming ${route.field}, no gateway request, nothing recorded or queued`, async () => {
          const ref = await forgottenRef();
          const orderId = uniqueOrderId(route.kind);
          const storeBefore = await dumpStore(be.store);
          const sandboxBefore = await sandboxRows();
          const sentBefore = sent.length;
          const res = await merchant(be.url, 'POST', route.path, route.body(ref, orderId));
          assert.equal(res.status, 409, JSON.stringify(res.body));
          assert.equal(res.body.error.code, 'card-ref-forgotten');
          assert.equal(res.body.error.field, route.field);
          assert.ok(res.body.error.message.startsWith(`${route.field}: `), res.body.error.message);
          assert.ok(res.body.error.message.includes(ref), res.body.error.message);
          assert.deepEqual(sent.slice(sentBefore), [], 'no request to the gateway');
          assert.deepEqual(await sandboxRows(), sandboxBefore, 'nothing at the sandbox');
          assert.equal(await dumpStore(be.store), storeBefore, 'no row written or changed');
          const read = await merchant(be.url, 'GET', `${route.path}/${orderId}`);
          assert.equal(read.status, 404);
          // Under an Idempotency-Key too, and the key keeps that answer: it holds for good.
          const headers = { 'Idempotency-Key': `forgotten-${orderId}` };
          for (let time = 0; time < 2; time++) {
            const keyed = await merchant(
              be.url,
              'POST',
              route.path,
              route.body(ref, orderId),
              headers,
            );
            assert.equal(keyed.status, 409);
            assert.equal(keyed.body.error.code, 'card-ref-forgotten');
          }
          assert.deepEqual(sent.slice(sentBefore), []);
        });

        it('a reference this backend never held (made elsewhere) is charged as before', async () => {
          const ref = await cardRefOf(elsewhere);
          assert.equal(await be.store.cardRefs.get(ref), null);
          await charged(route, ref);
        });

        it('a reference this backend holds and has not forgotten is charged as before', async () => {
          const ref = await cardRefOf(be);
          await charged(route, ref);
        });
      });
    }

    it('a forget crossing a rebill being sent is refused for now (409, Retry-After) until its answer; the next rebill is refused', async () => {
      const ref = await cardRefOf(be);
      let reached!: () => void;
      let release!: () => void;
      const atGateway = new Promise<void>((resolve) => {
        reached = resolve;
      });
      hold = {
        operation: 'make-rebill',
        reached,
        released: new Promise<void>((resolve) => {
          release = resolve;
        }),
      };
      const orderId = uniqueOrderId('rebill');
      const rebill = merchant(be.url, 'POST', '/v1/rebills', {
        cardRefId: ref,
        orderId,
        amount: '5.00',
        currency: 'EUR',
      });
      try {
        await atGateway;
        const crossing = await merchant(be.url, 'POST', `/v1/card-refs/${ref}/forget`, {});
        assert.equal(crossing.status, 409, JSON.stringify(crossing.body));
        assert.equal(crossing.body.error.code, 'conflict');
        assert.ok(crossing.body.error.message.includes(orderId), crossing.body.error.message);
        assert.equal(crossing.headers.get('retry-after'), '5');
        assert.equal((await be.store.cardRefs.get(ref))?.forgottenAt, null);
      } finally {
        release();
      }
      const answered = await rebill;
      assert.equal(answered.status, 200, JSON.stringify(answered.body));
      assert.equal(answered.body.status, 'approved');
      const forgot = await merchant(be.url, 'POST', `/v1/card-refs/${ref}/forget`, {});
      assert.equal(forgot.status, 200, JSON.stringify(forgot.body));
      assert.equal(forgot.body.forgotten, true);
      const after = await merchant(be.url, 'POST', '/v1/rebills', {
        cardRefId: ref,
        orderId: uniqueOrderId('rebill'),
        amount: '5.00',
        currency: 'EUR',
      });
      assert.equal(after.status, 409);
      assert.equal(after.body.error.code, 'card-ref-forgotten');
    });

    it('a rebill that waits on a forget committing meanwhile sees it: 409 card-ref-forgotten, no gateway request', async () => {
      const ref = await cardRefOf(be);
      const sentBefore = sent.length;
      let commit!: () => void;
      const committed = new Promise<void>((resolve) => {
        commit = resolve;
      });
      let locked!: () => void;
      const rowLocked = new Promise<void>((resolve) => {
        locked = resolve;
      });
      // A forget in progress: the row locked for update and marked, not yet committed.
      const forgetting = be.store.db.transaction(async (tx) => {
        await tx.query('select id from card_refs where id = $1 for update', [ref]);
        await tx.query('update card_refs set forgotten_at = now() where id = $1', [ref]);
        locked();
        await committed;
      });
      await rowLocked;
      const rebill = merchant(be.url, 'POST', '/v1/rebills', {
        cardRefId: ref,
        orderId: uniqueOrderId('rebill'),
        amount: '5.00',
        currency: 'EUR',
      });
      try {
        if (testStore.kind === 'postgres') {
          // Seen waiting on the row lock (another connection asks), then the forget commits.
          const observer = await postgresObserver();
          try {
            for (let tries = 0; ; tries++) {
              const { rows } = await observer.query(
                `select 1 from pg_stat_activity
                  where wait_event_type = 'Lock' and query like '%from card_refs%for share%'`,
              );
              if (rows.length > 0) break;
              assert.ok(tries < 200, 'the rebill never waited on the lock');
              await new Promise((resolve) => setTimeout(resolve, 10));
            }
          } finally {
            await observer.end();
          }
        } else {
          // One PGlite runs one transaction at a time: the rebill's queries wait for this one.
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      } finally {
        commit();
        await forgetting;
      }
      const res = await rebill;
      assert.equal(res.status, 409, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'card-ref-forgotten');
      assert.deepEqual(sent.slice(sentBefore), [], 'no request to the gateway');
    });

    it('a charge reserved long ago and never answered (its instance died) does not hold a forget', async () => {
      const ref = await cardRefOf(be);
      const stale = await be.store.operations.create({
        kind: 'rebill',
        clientId: uniqueOrderId('rebill'),
        amountMinor: 500,
        currency: 'EUR',
        cardRefId: ref,
        data: { cardRefId: ref },
      });
      await be.store.db.query(
        `update merchant_operations set created_at = now() - interval '10 minutes' where id = $1`,
        [stale.id],
      );
      const forgot = await merchant(be.url, 'POST', `/v1/card-refs/${ref}/forget`, {});
      assert.equal(forgot.status, 200, JSON.stringify(forgot.body));
      assert.equal(forgot.body.forgotten, true);
    });
  });
}
