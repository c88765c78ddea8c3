/**
 * The one namespace of gateway client_orderids in the store, on both engines: a session, a further
 * attempt and a merchant operation that sends a client_orderid each claim theirs in the
 * transaction that writes their row (a taken id writes nothing); follow-on kinds claim nothing;
 * two creations racing for one id give one row; and migration 016 takes in the ids of a store
 * that has rows already.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ClientOrderIdTakenError } from '../../../server/src/store/client-order-ids.js';
import {
  CHECKOUT_MIGRATION_SET,
  type CheckoutStore,
  checkoutMigrations,
  createCheckoutStore,
  migrate,
  type NewCheckoutSession,
  openDatabase,
} from '../../../server/src/store/index.js';
import { engines, uniqueSchema } from './engines.js';

let counter = 0;
function nextId(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}`;
}
function newSession(clientOrderId: string): NewCheckoutSession {
  return {
    clientOrderId,
    amountMinor: 1000,
    currency: 'EUR',
    intent: 'sale',
    customer: { email: 'shopper@example.com' },
    expiresAt: new Date(Date.now() + 15 * 60_000),
  };
}

/** Whether `promise` was refused because `clientOrderId` is held by `kind`. */
async function takenBy(promise: Promise<unknown>, clientOrderId: string, kind: string) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ClientOrderIdTakenError, String(error));
    assert.equal(error.clientOrderId, clientOrderId);
    assert.equal(error.holder?.kind, kind);
    return true;
  });
}

for (const engine of engines()) {
  describe(`client order ids on ${engine.name}`, () => {
    let store: CheckoutStore;
    before(async () => {
      store = await engine.open();
    });
    after(async () => {
      await engine.close(store);
    });
    const count = async (table: string, column: string, value: string) => {
      const { rows } = await store.db.query(
        `select count(*)::int as n from ${table} where ${column} = $1`,
        [value],
      );
      return Number(rows[0]?.n);
    };

    test('a session and an operation that sends a client_orderid cannot share one; nothing is written', async () => {
      const id = nextId('ns');
      const session = await store.sessions.create(newSession(id));
      await takenBy(store.operations.create({ kind: 'rebill', clientId: id }), id, 'session');
      await takenBy(store.operations.create({ kind: 'payout', clientId: id }), id, 'session');
      assert.equal(await count('merchant_operations', 'client_id', id), 0);

      const other = nextId('ns');
      const op = await store.operations.create({ kind: 'transfer', clientId: other });
      await takenBy(store.sessions.create(newSession(other)), other, 'transfer');
      await takenBy(
        store.operations.create({ kind: 'account-verification', clientId: other }),
        other,
        'transfer',
      );
      assert.equal(await count('checkout_sessions', 'client_orderid', other), 0);
      assert.equal(await count('orders', 'client_orderid', other), 0);
      const { rows } = await store.db.query(
        'select client_orderid, owner_kind, owner_id from client_order_ids where client_orderid = any($1::text[]) order by owner_kind',
        [[id, other]],
      );
      assert.deepEqual(rows, [
        { client_orderid: id, owner_kind: 'session', owner_id: session.id },
        { client_orderid: other, owner_kind: 'transfer', owner_id: op.id },
      ]);
    });

    test("follow-on kinds and recurring payments claim nothing: they reuse an order's id or send none", async () => {
      const id = nextId('ns');
      await store.sessions.create(newSession(id));
      for (const kind of ['card-ref', 'capture', 'void', 'return', 'recurring-payment'] as const) {
        await store.operations.create({ kind, clientId: id });
      }
      assert.equal(await count('merchant_operations', 'client_id', id), 5);
      assert.equal(await count('client_order_ids', 'client_orderid', id), 1);
    });

    test("a further attempt claims `<orderId>-N`, or another id of the order's when that is held", async () => {
      const plain = nextId('ns');
      const session = await store.sessions.create(newSession(plain));
      await store.sessions.claimForPayment(session.id);
      const first = await store.orders.getByClientOrderId(plain);
      assert.ok(first);
      // What settleAttempt does with a failed attempt: the order final, the session open again.
      await store.orders.transition(first.id, { from: ['new'], to: 'declined' });
      await store.sessions.transition(session.id, { from: ['paying'], to: 'open' });
      const second = await store.sessions.claimForPayment(session.id);
      assert.ok(second.won);
      assert.equal(second.order.clientOrderId, `${plain}-2`);
      await takenBy(
        store.operations.create({ kind: 'rebill', clientId: `${plain}-2` }),
        `${plain}-2`,
        'attempt',
      );

      const held = nextId('ns');
      await store.operations.create({ kind: 'payout', clientId: `${held}-2` });
      const other = await store.sessions.create(newSession(held));
      const one = await store.sessions.claimForPayment(other.id);
      assert.ok(one.won);
      await store.orders.transition(one.order.id, { from: ['new'], to: 'error' });
      await store.sessions.transition(other.id, { from: ['paying'], to: 'open' });
      const two = await store.sessions.claimForPayment(other.id);
      assert.ok(two.won);
      assert.match(two.order.clientOrderId, new RegExp(`^${held}-[0-9a-f]{6}-2$`));
      const { rows } = await store.db.query(
        'select owner_kind, owner_id from client_order_ids where client_orderid = $1',
        [two.order.clientOrderId],
      );
      assert.deepEqual(rows, [{ owner_kind: 'attempt', owner_id: two.order.id }]);
    });

    test('a session and an operation racing for one id: exactly one is written', async () => {
      for (let round = 0; round < 5; round++) {
        const id = nextId('race');
        const results = await Promise.allSettled([
          store.sessions.create(newSession(id)),
          store.operations.create({ kind: 'rebill', clientId: id }),
          store.operations.create({ kind: 'payout', clientId: id }),
        ]);
        assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
        for (const r of results) {
          if (r.status === 'rejected') assert.ok(r.reason instanceof ClientOrderIdTakenError);
        }
        const written =
          (await count('checkout_sessions', 'client_orderid', id)) +
          (await count('merchant_operations', 'client_id', id));
        assert.equal(written, 1);
      }
    });
  });
}

describe('migration 016 on a store that has rows already', () => {
  test('takes in every session, attempt and id-sending operation, the oldest holder first', async () => {
    const url = process.env.TEST_DATABASE_URL;
    const schema = url ? uniqueSchema() : undefined;
    const db = await openDatabase({ ...(url ? { url } : {}), ...(schema ? { schema } : {}) });
    try {
      const before = checkoutMigrations.findIndex((m) => m.id === '016-client-order-ids');
      assert.ok(before > 0);
      await migrate(db, CHECKOUT_MIGRATION_SET, checkoutMigrations.slice(0, before));
      const at = (minutes: number) => new Date(Date.UTC(2025, 0, 1, 12, minutes)).toISOString();
      await db.query(
        `insert into orders (id, client_orderid, session_id, intent, amount_minor, currency, status,
           return_ref, attempt, merchant_orderid, created_at)
         values ('row-1', 'ord-1', 's-1', 'sale', 100, 'EUR', 'declined', 'rr-1', 1, null, $1),
                ('row-2', 'ord-1-2', 's-1', 'sale', 100, 'EUR', 'approved', 'rr-2', 2, 'ord-1', $2),
                ('row-3', 'legacy-1', null, 'sale', 100, 'EUR', 'approved', 'rr-3', 1, null, $1)`,
        [at(0), at(5)],
      );
      await db.query(
        `insert into checkout_sessions (id, client_orderid, amount_minor, currency, intent,
           order_id, expires_at, created_at)
         values ('s-1', 'ord-1', 100, 'EUR', 'sale', 'row-2', $2, $1),
                ('s-2', 'ord-2', 100, 'EUR', 'sale', null, $2, $1)`,
        [at(0), at(30)],
      );
      await db.query(
        `insert into merchant_operations (id, kind, client_id, status, created_at)
         values ('op-1', 'rebill', 'rb-1', 'approved', $1),
                ('op-2', 'payout', 'po-1', 'approved', $1),
                ('op-3', 'hosted-form', 'hf-1', 'processing', $1),
                ('op-4', 'capture', 'ord-1-2:capture:k', 'approved', $2),
                ('op-5', 'card-ref', 'ord-1-2', 'approved', $2),
                ('op-6', 'recurring-payment', 'sub-1', 'approved', $1),
                ('op-7', 'rebill', 'ord-2', 'approved', $2),
                ('op-8', 'transfer', 'tr-1', 'approved', $3),
                ('op-9', 'payout', 'tr-1', 'approved', $2)`,
        [at(1), at(10), at(0)],
      );
      await migrate(db, CHECKOUT_MIGRATION_SET, checkoutMigrations);
      const { rows } = await db.query(
        'select client_orderid, owner_kind, owner_id from client_order_ids order by client_orderid',
      );
      assert.deepEqual(rows, [
        { client_orderid: 'hf-1', owner_kind: 'hosted-form', owner_id: 'op-3' },
        { client_orderid: 'legacy-1', owner_kind: 'attempt', owner_id: 'row-3' },
        { client_orderid: 'ord-1', owner_kind: 'session', owner_id: 's-1' },
        { client_orderid: 'ord-1-2', owner_kind: 'attempt', owner_id: 'row-2' },
        // A rebill made after the session under its id (the old collision): the session keeps it.
        { client_orderid: 'ord-2', owner_kind: 'session', owner_id: 's-2' },
        { client_orderid: 'po-1', owner_kind: 'payout', owner_id: 'op-2' },
        { client_orderid: 'rb-1', owner_kind: 'rebill', owner_id: 'op-1' },
        { client_orderid: 'tr-1', owner_kind: 'transfer', owner_id: 'op-8' },
      ]);
      // From now on the store refuses what the rows before hold.
      const store = createCheckoutStore(db);
      await takenBy(store.sessions.create(newSession('rb-1')), 'rb-1', 'rebill');
      await takenBy(
        store.operations.create({ kind: 'payout', clientId: 'ord-1' }),
        'ord-1',
        'session',
      );
      await assert.rejects(
        store.operations.create({ kind: 'transfer', clientId: 'ord-1-2' }),
        (e) => {
          assert.ok(e instanceof ClientOrderIdTakenError);
          assert.deepEqual(e.holder, {
            kind: 'attempt',
            id: 'row-2',
            merchantOrderId: 'ord-1',
            attempt: 2,
          });
          return true;
        },
      );
      // What claims nothing goes on: a capture of the kept attempt, a recurring payment.
      await store.operations.create({ kind: 'return', clientId: 'ord-1-2:return:k' });
      await store.operations.create({ kind: 'recurring-payment', clientId: 'ord-1' });
    } finally {
      if (schema) await db.query(`drop schema if exists "${schema}" cascade`);
      await db.close();
    }
  });
});
