/**
 * The engines every store test runs on: PGlite in memory always, PostgreSQL when
 * TEST_DATABASE_URL is set. On PostgreSQL each store lives in its own fresh schema, dropped on
 * close, because other test files and other people use that database at the same time.
 */
import { randomBytes } from 'node:crypto';
import { type CheckoutStore, openCheckoutStore } from '../../../server/src/store/index.js';

export interface Engine {
  name: 'pglite' | 'postgres';
  open(): Promise<CheckoutStore>;
  close(store: CheckoutStore): Promise<void>;
}

export function uniqueSchema(prefix = 'store_test'): string {
  return `${prefix}_${process.pid}_${randomBytes(6).toString('hex')}`;
}

export function engines(): Engine[] {
  const list: Engine[] = [
    { name: 'pglite', open: () => openCheckoutStore({}), close: (store) => store.close() },
  ];
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const schemas = new WeakMap<CheckoutStore, string>();
    list.push({
      name: 'postgres',
      async open() {
        const schema = uniqueSchema();
        const store = await openCheckoutStore({ url, schema });
        schemas.set(store, schema);
        return store;
      },
      async close(store) {
        await store.db.query(`drop schema if exists "${schemas.get(store)}" cascade`);
        await store.close();
      },
    });
  }
  return list;
}
