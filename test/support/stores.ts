/**
 * The two stores every security test runs on: embedded PGlite (a schema of the test process's
 * in-memory one: test/support/memory-schemas.ts) and PostgreSQL at TEST_DATABASE_URL, in a
 * schema of its own (others use that database at the same time).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type CheckoutStore, openCheckoutStore } from '../../server/src/store/index.js';
import { memoryCheckoutStore } from './memory-schemas.js';

export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestStore {
  kind: 'pglite' | 'postgres';
  open(): Promise<CheckoutStore>;
  /** Drops what open() created. */
  cleanup(): Promise<void>;
}

export function pgliteStore(): TestStore {
  return { kind: 'pglite', open: memoryCheckoutStore, cleanup: async () => {} };
}

export function postgresStore(prefix: string): TestStore & { schema: string } {
  const schema = `${prefix}_${randomBytes(5).toString('hex')}`;
  return {
    kind: 'postgres',
    schema,
    open: () => openCheckoutStore({ url: TEST_DATABASE_URL, schema }),
    async cleanup() {
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      try {
        await client.query(`drop schema if exists "${schema}" cascade`);
      } finally {
        await client.end();
      }
    },
  };
}

/** Every row of every table of the store, as text: what a leak search reads. */
export async function dumpStore(store: CheckoutStore): Promise<string> {
  const { rows } = await store.db.query<{ table_name: string }>(
    `select table_name from information_schema.tables
     where table_schema = current_schema() and table_type = 'BASE TABLE'`,
  );
  const parts: string[] = [];
  for (const { table_name } of rows) {
    const data = await store.db.query(`select row_to_json(t)::text as row from "${table_name}" t`);
    parts.push(`## ${table_name}`, ...data.rows.map((r) => String((r as { row: string }).row)));
  }
  return parts.join('\n');
}
