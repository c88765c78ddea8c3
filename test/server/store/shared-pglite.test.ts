/**
 * One PGlite shared by the backend's store and the sandbox's, each in its own schema (what
 * `npm start` runs): both migrate into it, each sees only its own tables, and one store's
 * transaction is never entered by the other's queries.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SANDBOX_MIGRATION_SET, SANDBOX_MIGRATIONS } from '../../../server/src/sandbox/schema.js';
import { SandboxStore } from '../../../server/src/sandbox/store.js';
import {
  openSharedPGlite,
  type SharedPGlite,
} from '../../../server/src/store/engine/shared-pglite.js';
import {
  CHECKOUT_MIGRATION_SET,
  checkoutMigrations,
  createCheckoutStore,
  type Database,
  migrate,
  migrateCheckoutStore,
} from '../../../server/src/store/index.js';

const CHECKOUT_TABLES = [
  'card_refs',
  'checkout_session_cards',
  'checkout_sessions',
  'client_order_ids',
  'gateway_callbacks',
  'gateway_history',
  'idempotency_keys',
  'merchant_operations',
  'merchant_webhooks',
  'orders',
  'payment_link_visits',
  'payment_links',
  'schema_migrations',
];
const SANDBOX_TABLES = [
  'sandbox_callback_attempts',
  'sandbox_callbacks',
  'sandbox_card_refs',
  'sandbox_jobs',
  'sandbox_nonces',
  'sandbox_recurring_payments',
  'sandbox_transactions',
  'schema_migrations',
];

async function tablesBySchema(db: Database): Promise<Record<string, string[]>> {
  const { rows } = await db.query<{ table_schema: string; table_name: string }>(
    `select table_schema, table_name from information_schema.tables
     where table_schema not in ('pg_catalog', 'information_schema')
     order by table_schema, table_name`,
  );
  const bySchema: Record<string, string[]> = {};
  for (const row of rows) {
    bySchema[row.table_schema] = [...(bySchema[row.table_schema] ?? []), row.table_name];
  }
  return bySchema;
}

async function currentSchema(q: Pick<Database, 'query'>): Promise<string> {
  const { rows } = await q.query<{ s: string }>('select current_schema() as s');
  return rows[0]?.s ?? '';
}

describe('the backend and the sandbox on one shared PGlite', () => {
  let shared: SharedPGlite;
  let checkoutDb: Database;
  let sandboxDb: Database;

  before(async () => {
    shared = await openSharedPGlite(undefined);
    checkoutDb = await shared.database('checkout');
    sandboxDb = await shared.database('sandbox');
    // Concurrently, as nothing in the lock's design depends on one store going first.
    await Promise.all([
      migrateCheckoutStore(checkoutDb),
      migrate(sandboxDb, SANDBOX_MIGRATION_SET, SANDBOX_MIGRATIONS),
    ]);
  });
  after(async () => {
    await shared.close();
  });

  test('both migrate into it, each into its own schema with its own bookkeeping', async () => {
    assert.deepEqual(await tablesBySchema(checkoutDb), {
      checkout: CHECKOUT_TABLES,
      sandbox: SANDBOX_TABLES,
    });
    const applied = async (db: Database) =>
      (
        await db.query<{ set_name: string; id: string }>(
          'select set_name, id from schema_migrations order by id',
        )
      ).rows;
    assert.deepEqual(
      await applied(checkoutDb),
      checkoutMigrations.map((m) => ({ set_name: CHECKOUT_MIGRATION_SET, id: m.id })),
    );
    assert.deepEqual(
      await applied(sandboxDb),
      SANDBOX_MIGRATIONS.map((m) => ({ set_name: SANDBOX_MIGRATION_SET, id: m.id })),
    );
    // Migrating again (the next start) applies nothing.
    await migrateCheckoutStore(checkoutDb);
    await migrate(sandboxDb, SANDBOX_MIGRATION_SET, SANDBOX_MIGRATIONS);
    assert.equal((await applied(checkoutDb)).length, checkoutMigrations.length);
    assert.equal((await applied(sandboxDb)).length, SANDBOX_MIGRATIONS.length);
  });

  test("each sees only its own tables: the other's names are unknown to it", async () => {
    await assert.rejects(checkoutDb.query('select count(*) from sandbox_transactions'), {
      code: '42P01',
    });
    await assert.rejects(sandboxDb.query('select count(*) from orders'), { code: '42P01' });
    await assert.rejects(
      sandboxDb.transaction((tx) => tx.query('select count(*) from checkout_sessions')),
      { code: '42P01' },
    );
    // The real repositories work side by side.
    const checkout = createCheckoutStore(checkoutDb);
    const sandbox = new SandboxStore(sandboxDb);
    const session = await checkout.sessions.create({
      clientOrderId: 'shared-1',
      amountMinor: 1042,
      currency: 'EUR',
      intent: 'sale',
      expiresAt: new Date(Date.now() + 60_000),
    });
    assert.equal(await sandbox.useNonce('login', 'nonce-1', 1000, 60_000), true);
    assert.equal(await sandbox.useNonce('login', 'nonce-1', 1001, 60_000), false);
    assert.equal((await checkout.sessions.get(session.id))?.clientOrderId, 'shared-1');
  });

  test('interleaved work of both stores always runs in its own schema', async () => {
    const work: Promise<string>[] = [];
    for (let i = 0; i < 40; i++) {
      for (const db of [checkoutDb, sandboxDb]) {
        work.push(currentSchema(db));
        work.push(
          db.transaction(async (tx) => `${await currentSchema(tx)}/${await currentSchema(tx)}`),
        );
      }
    }
    const expected = Array.from({ length: 40 }, () => [
      'checkout',
      'checkout/checkout',
      'sandbox',
      'sandbox/sandbox',
    ]).flat();
    assert.deepEqual(await Promise.all(work), expected);
  });

  test("a transaction is not entered by the other store's queries, nor undone with them", async () => {
    await checkoutDb.query('create table probe (v text)');
    await sandboxDb.query('create table probe (v text)');
    const events: string[] = [];
    let otherWrite: Promise<unknown> | undefined;
    await assert.rejects(
      checkoutDb.transaction(async (tx) => {
        await tx.query('insert into probe values ($1)', ['checkout, rolled back']);
        // The sandbox writes while the backend's transaction is open: it must wait for it.
        otherWrite = sandboxDb
          .query('insert into probe values ($1)', ['sandbox, kept'])
          .then(() => events.push('sandbox write done'));
        for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
        assert.equal(await currentSchema(tx), 'checkout');
        events.push('checkout transaction ends');
        throw new Error('roll back');
      }),
      /roll back/,
    );
    await otherWrite;
    assert.deepEqual(events, ['checkout transaction ends', 'sandbox write done']);
    assert.deepEqual((await checkoutDb.query('select v from probe')).rows, []);
    assert.deepEqual((await sandboxDb.query('select v from probe')).rows, [{ v: 'sandbox, kept' }]);
    // The rollback left each store's path where it belongs.
    assert.equal(await currentSchema(checkoutDb), 'checkout');
    assert.equal(await currentSchema(sandboxDb), 'sandbox');
  });

  test('a rolled-back transaction right after the other store leaves its path in place', async () => {
    // The sandbox went last, so the backend's transaction is the one that moves the path.
    assert.equal(await currentSchema(sandboxDb), 'sandbox');
    await assert.rejects(
      checkoutDb.transaction(async () => {
        throw new Error('roll back');
      }),
      /roll back/,
    );
    assert.equal(await currentSchema(checkoutDb), 'checkout');
  });

  test('a failed query of one store does not stop the queries queued behind it', async () => {
    const count = 'select count(*)::int as n from orders';
    const before = (await checkoutDb.query<{ n: number }>(count)).rows;
    const [bad, good] = await Promise.allSettled([
      sandboxDb.query('select * from no_such_table'),
      checkoutDb.query<{ n: number }>(count),
    ]);
    assert.equal(bad.status, 'rejected');
    assert.deepEqual(good.status === 'fulfilled' && good.value.rows, before);
  });
});

describe('SharedPGlite', () => {
  test('refuses a schema name that is not a plain identifier', async () => {
    const shared = await openSharedPGlite(undefined);
    try {
      await assert.rejects(shared.database('x"; drop schema public; --'), {
        code: 'store-config',
      });
    } finally {
      await shared.close();
    }
  });

  test('close waits for the work under way, then refuses more', async () => {
    const shared = await openSharedPGlite(undefined);
    const db = await shared.database('waits');
    const running = db.transaction(async (tx) => {
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
      return (await tx.query<{ n: number }>('select 41 + 1 as n')).rows[0]?.n;
    });
    const closed = shared.close();
    assert.equal(await running, 42);
    await closed;
    await assert.rejects(db.query('select 1'));
  });
});
