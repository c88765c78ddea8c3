/**
 * One PGlite shared by several stores, each in a schema of its own: `npm start` runs the backend
 * and the embedded sandbox in one process on one WASM Postgres instead of two.
 *
 * PGlite has a single connection, so one session `search_path` cannot serve two stores at once.
 * Every handle's work therefore runs under one lock, and a handle first points `search_path` at
 * its schema when the work before was another schema's. Each store's SQL keeps its plain table
 * names, its migrations create its tables in its schema, and its `schema_migrations` is its own.
 *
 * A transaction holds the lock from BEGIN to COMMIT: the other stores' queries wait for it, so
 * none of them runs inside it (its rollback cannot take their writes along) or sees its search
 * path. The rule that keeps this free of deadlock, as on any single PGlite: a transaction awaits
 * only its own SQL (through its `tx`), never an HTTP call, a timer, or another store, because
 * whatever that waits on may need the lock the transaction holds. The backend and the sandbox
 * follow it (they call each other over HTTP only outside their transactions).
 */
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { startPGlite } from './pglite-engine.js';
import { type PreparedQueries, preparedQueries } from './pglite-prepared.js';
import { assertSchemaName } from './schema-name.js';
import type { Database, Queryable, QueryResult } from './types.js';

export interface SharedPGlite {
  /**
   * A Database whose SQL runs in `schema` (created when missing). Its `close()` does nothing:
   * the owner closes the SharedPGlite once every store using it has stopped.
   */
  database(schema: string): Promise<Database>;
  /** Waits for the work under way, then closes PGlite. */
  close(): Promise<void>;
}

interface PGliteResults<Row> {
  rows: Row[];
  affectedRows?: number;
}

/** What PGlite and its transaction objects both offer. */
interface PGliteLike {
  query<Row>(sql: string, params?: unknown[]): Promise<PGliteResults<Row>>;
  exec(sql: string): Promise<PGliteResults<Record<string, unknown>>[]>;
}

async function run<Row>(
  prepared: PreparedQueries,
  q: PGliteLike,
  sql: string,
  params?: unknown[],
  tx?: Transaction,
): Promise<QueryResult<Row>> {
  // Without parameters use the simple protocol, as `pg` does, so that a migration may hold
  // several statements (PGlite's `query` refuses them); the answer is the last statement's.
  // With them, a prepared statement per SQL text (pglite-prepared.ts; Postgres re-plans one
  // by itself when `search_path` differs from when it was planned).
  const result =
    params && params.length > 0
      ? await prepared.query<Row>(sql, params, tx)
      : ((await q.exec(sql)).at(-1) as PGliteResults<Row> | undefined);
  const rows = result?.rows ?? [];
  // PGlite counts only written rows in affectedRows (0 for a select).
  return { rows, rowCount: rows.length || (result?.affectedRows ?? 0) };
}

/** Runs tasks one at a time, in call order; a failed task does not stop the next. */
class Lock {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.catch(() => {});
    return result;
  }
}

/** Opens PGlite in `dataDir` (memory without one) for stores to share. */
export async function openSharedPGlite(dataDir: string | undefined): Promise<SharedPGlite> {
  return sharePGlite(await startPGlite(dataDir));
}

export function sharePGlite(pg: PGlite): SharedPGlite {
  const lock = new Lock();
  const prepared = preparedQueries(pg);
  // PGlite starts with `search_path=public`.
  let current = 'public';
  // Counted when a statement or transaction is started, in the order the lock then runs them:
  // a read started at count n ran before anything counted after it (database.ts, `writes`).
  let writes = 0;

  /** Under the lock: the session's search_path becomes `schema`, outside any transaction. */
  const enter = async (schema: string) => {
    if (current === schema) return;
    await pg.exec(`set search_path to "${schema}"`);
    current = schema;
  };

  return {
    async database(schema) {
      assertSchemaName(schema);
      await lock.run(() => pg.exec(`create schema if not exists "${schema}"`));
      const tx = (t: Transaction): Queryable => ({
        query: (sql, params) => run(prepared, t, sql, params, t),
      });
      const readOnly: Database['query'] = (sql, params) =>
        lock.run(async () => {
          if (current !== schema) await enter(schema);
          return run(prepared, pg, sql, params);
        });
      return {
        kind: 'pglite',
        query: (sql, params) => {
          writes += 1;
          return readOnly(sql, params);
        },
        readOnly,
        writes: () => writes,
        transaction: (fn) => {
          writes += 1;
          return lock.run(async () => {
            // Set before BEGIN: a rollback would undo a SET made inside the transaction.
            await enter(schema);
            return pg.transaction((t) => fn(tx(t)));
          });
        },
        close: async () => {},
      };
    },
    close: () => lock.run(() => pg.close()),
  };
}
