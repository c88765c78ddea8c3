/**
 * One SQL interface over two engines: embedded PGlite (a data folder, or memory) by default,
 * PostgreSQL through `pg` when a URL is given. Same SQL on both; `$1` placeholders. The interface
 * both answer is types.ts.
 */
import pg from 'pg';
import { assertSchemaName } from './schema-name.js';
import type { SharedPGlite } from './shared-pglite.js';
import type { Database } from './types.js';

export interface DatabaseOptions {
  /** A `postgres://` URL: use PostgreSQL. */
  url?: string | undefined;
  /** A folder for PGlite; absent means in memory (tests). */
  dataDir?: string | undefined;
  /**
   * A schema to live in (created if missing, then the only entry of `search_path`), so that
   * several stores or test files can share one PostgreSQL database without seeing each other.
   * Lower-case letters, digits and `_` only. Absent: the server's default (`public`).
   */
  schema?: string | undefined;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const schema = options.schema;
  if (schema !== undefined) assertSchemaName(schema);
  return options.url ? openPostgres(options.url, schema) : openPGlite(options.dataDir, schema);
}

/**
 * Opens PGlite in `dataDir` (memory without one) for stores to share (shared-pglite.ts). PGlite's
 * code is loaded here, on first use, never at start-up: a backend on PostgreSQL does not load it,
 * which kept about 40 MB out of its resident memory when run through tsx as `npm run server`
 * then did (test/bench/RESULTS.md, the PostgreSQL load test).
 */
export async function openSharedPGlite(dataDir: string | undefined): Promise<SharedPGlite> {
  const embedded = await import('./shared-pglite.js');
  return embedded.openSharedPGlite(dataDir);
}

/** A PGlite of its own: the shared one (shared-pglite.ts) with a single store on it. */
async function openPGlite(
  dataDir: string | undefined,
  schema: string | undefined,
): Promise<Database> {
  const shared = await openSharedPGlite(dataDir);
  try {
    const db = await shared.database(schema ?? 'public');
    return { ...db, close: () => shared.close() };
  } catch (error) {
    await shared.close().catch(() => {});
    throw error;
  }
}

async function openPostgres(url: string, schema: string | undefined): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // A start-up option, so every pooled connection (and so every transaction) lives in it.
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client's network error must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const run = async <Row>(q: pg.Pool | pg.PoolClient, sql: string, params?: unknown[]) => {
    const result = await q.query(sql, params);
    return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
  };
  try {
    await run(pool, 'select 1');
    if (schema) {
      await run(pool, `create schema if not exists "${schema}"`).catch((error: unknown) => {
        // Two processes creating the same schema at once: the loser sees a duplicate. Fine.
        const code = (error as { code?: string }).code;
        if (code !== '23505' && code !== '42P06') throw error;
      });
    }
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  return {
    kind: 'postgres',
    query: (sql, params) => run(pool, sql, params),
    async transaction(fn) {
      const client = await pool.connect();
      // A checked-out client is no longer heard by the pool's idle 'error' listener, and
      // node-postgres emits 'error' on it when its connection drops (a failover, a network reset,
      // pg_terminate_backend), even mid-query: unheard, that ends the process. Heard here, it is
      // an error of this transaction alone (its pending query rejects too), and the broken client
      // is released with it, so that the pool discards it rather than lend it again.
      let broken: Error | undefined;
      const onError = (error: Error) => {
        broken ??= error;
      };
      client.on('error', onError);
      try {
        await client.query('begin');
        const value = await fn({ query: (sql, params) => run(client, sql, params) });
        if (broken) throw broken;
        await client.query('commit');
        return value;
      } catch (error) {
        if (!broken) await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        // A broken client keeps its listener: a dropped connection may say so more than once.
        if (!broken) client.off('error', onError);
        client.release(broken ?? false);
      }
    },
    close: () => pool.end(),
  };
}

export interface Migration {
  /** Unique and ordered within its set, e.g. "001-orders". Never edit one that has shipped. */
  id: string;
  sql: string;
}

/**
 * Applies the migrations of one set (`checkout`, `sandbox`, ...) not yet applied, in order, each
 * in its own transaction. An advisory lock keeps two instances starting at once from racing.
 */
export async function migrate(db: Database, set: string, migrations: Migration[]): Promise<void> {
  await db.query(
    `create table if not exists schema_migrations (
       set_name text not null, id text not null, applied_at timestamptz not null default now(),
       primary key (set_name, id))`,
  );
  for (const migration of migrations) {
    await db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock(hashtext($1))', [`migrate:${set}`]);
      const done = await tx.query(
        'select 1 from schema_migrations where set_name = $1 and id = $2',
        [set, migration.id],
      );
      if (done.rowCount > 0) return;
      await tx.query(migration.sql);
      await tx.query('insert into schema_migrations (set_name, id) values ($1, $2)', [
        set,
        migration.id,
      ]);
    });
  }
}
