import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  checkoutMigrations,
  migrate,
  openCheckoutStore,
  openDatabase,
} from '../../../server/src/store/index.js';
import { copyNewDataFolder } from '../../support/pglite-cache.js';
import { engines, uniqueSchema } from './engines.js';

const url = process.env.TEST_DATABASE_URL;

describe('openDatabase', () => {
  test('refuses a schema name that is not a plain identifier', async () => {
    await assert.rejects(openDatabase({ schema: 'x"; drop table orders; --' }), {
      code: 'store-config',
    });
  });

  test('PGlite: a multi-statement migration runs, and the schema holds its tables', async () => {
    const db = await openDatabase({ schema: 'pg_lite_schema' });
    try {
      await migrate(db, 'probe', [
        {
          id: '001',
          sql: 'create table a (x int); create table b (y int); insert into a values (1), (2)',
        },
      ]);
      // Applying again is a no-op.
      await migrate(db, 'probe', [{ id: '001', sql: 'this is not SQL' }]);
      const { rows } = await db.query<{ table_schema: string; table_name: string }>(
        `select table_schema, table_name from information_schema.tables
         where table_name in ('a', 'b', 'schema_migrations') order by table_name`,
      );
      assert.deepEqual(rows, [
        { table_schema: 'pg_lite_schema', table_name: 'a' },
        { table_schema: 'pg_lite_schema', table_name: 'b' },
        { table_schema: 'pg_lite_schema', table_name: 'schema_migrations' },
      ]);
      const count = await db.query('select count(*)::int as n from a');
      assert.deepEqual(count.rows, [{ n: 2 }]);
    } finally {
      await db.close();
    }
  });
});

describe('openCheckoutStore with a PGlite data folder', () => {
  test('data survives a restart and migrations are not applied twice', async () => {
    const root = await mkdtemp(join(tmpdir(), 'store-test-'));
    const dataDir = join(root, 'data');
    try {
      await copyNewDataFolder(dataDir);
      const first = await openCheckoutStore({ dataDir });
      const session = await first.sessions.create({
        clientOrderId: 'persisted',
        amountMinor: 1,
        currency: 'EUR',
        intent: 'sale',
        expiresAt: new Date(Date.now() + 60_000),
      });
      await first.close();
      const second = await openCheckoutStore({ dataDir });
      try {
        assert.deepEqual(await second.sessions.get(session.id), session);
        const n = await second.db.query<{ n: number }>(
          'select count(*)::int as n from schema_migrations',
        );
        assert.deepEqual(n.rows, [{ n: checkoutMigrations.length }]);
      } finally {
        await second.close();
      }
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

for (const engine of engines()) {
  describe(`checkout store on ${engine.name}`, () => {
    test('migrations create every table of the checkout set', async () => {
      const store = await engine.open();
      try {
        const { rows } = await store.db.query<{ table_name: string }>(
          `select table_name from information_schema.tables
           where table_schema = current_schema() order by table_name`,
        );
        assert.deepEqual(
          rows.map((r) => r.table_name),
          [
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
          ],
        );
        const applied = await store.db.query<{ id: string }>(
          `select id from schema_migrations where set_name = 'checkout' order by id`,
        );
        assert.equal(applied.rows.length, checkoutMigrations.length);
        assert.equal(applied.rows[0]?.id, '001-orders');
      } finally {
        await engine.close(store);
      }
    });
  });
}

if (url) {
  describe('PostgreSQL schemas', () => {
    test('two stores in two schemas do not see each other, and migrate concurrently', async () => {
      const [s1, s2] = [uniqueSchema(), uniqueSchema()];
      const [a, b] = await Promise.all([
        openCheckoutStore({ url, schema: s1 }),
        openCheckoutStore({ url, schema: s2 }),
      ]);
      try {
        const expiresAt = new Date(Date.now() + 60_000);
        await a.sessions.create({
          clientOrderId: 'only-in-a',
          amountMinor: 100,
          currency: 'EUR',
          intent: 'sale',
          expiresAt,
        });
        assert.equal(
          (await a.sessions.getByClientOrderId('only-in-a'))?.clientOrderId,
          'only-in-a',
        );
        assert.equal(await b.sessions.getByClientOrderId('only-in-a'), null);
        // Opening the same schema again (a second instance starting) migrates nothing twice.
        const again = await openCheckoutStore({ url, schema: s1 });
        const n = await again.db.query<{ n: number }>(
          'select count(*)::int as n from schema_migrations',
        );
        assert.deepEqual(n.rows, [{ n: checkoutMigrations.length }]);
        await again.close();
      } finally {
        for (const [store, schema] of [
          [a, s1],
          [b, s2],
        ] as const) {
          await store.db.query(`drop schema "${schema}" cascade`);
          await store.close();
        }
      }
    });
  });
}
