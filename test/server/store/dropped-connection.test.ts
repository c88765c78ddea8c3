/**
 * A PostgreSQL connection dropped while a transaction holds it (a failover, a network reset,
 * `pg_terminate_backend`) fails that transaction, never the process: node-postgres emits
 * `'error'` on a checked-out client, which pg-pool does not listen to, and an unheard `'error'`
 * ends a Node process. Then the next transaction and query are served on a fresh connection.
 * PostgreSQL only (PGlite has no connection to drop): TEST_DATABASE_URL.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import { openDatabase } from '../../../server/src/store/index.js';
import { uniqueSchema } from './engines.js';

const url = process.env.TEST_DATABASE_URL;

describe('a connection dropped inside a transaction', {
  skip: !url && 'no TEST_DATABASE_URL',
}, () => {
  const schema = uniqueSchema('dropped');
  after(async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`).finally(() => client.end());
  });

  test('fails that transaction; the process and the store serve the next one', async () => {
    const db = await openDatabase({ url, schema });
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    // Without the fix the client's 'error' reaches the process: recorded here instead of ending
    // the test run, so that the test fails by its assertion.
    process.on('uncaughtException', record);
    const killer = new pg.Client({ connectionString: url });
    await killer.connect();
    try {
      const failed = db.transaction(async (tx) => {
        const { rows } = await tx.query<{ pid: number }>('select pg_backend_pid() as pid');
        const pid = rows[0]?.pid;
        // Terminated from another connection while this one waits in a query.
        setTimeout(() => {
          void killer.query('select pg_terminate_backend($1)', [pid]);
        }, 200);
        await tx.query('select pg_sleep(10)');
      });
      await assert.rejects(failed);
      // The client's 'error' and the socket's end come on later turns: give them some.
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.deepEqual(uncaught, []);
      const next = await db.transaction(async (tx) => (await tx.query('select 1 as one')).rows);
      assert.deepEqual(next, [{ one: 1 }]);
      assert.equal((await db.query('select 2 as two')).rowCount, 1);
    } finally {
      process.off('uncaughtException', record);
      await killer.end();
      await db.close();
    }
  });
});
