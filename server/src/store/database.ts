/**
 * One SQL interface over two engines: embedded PGlite (a data folder, or memory) by default,
 * PostgreSQL through `pg` when a URL is given. Same SQL on both; `$1` placeholders.
 */
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { PayCheckoutError } from '../errors.js';

export interface QueryResult<Row> {
  rows: Row[];
  rowCount: number;
}

export interface Queryable {
  /** Without parameters the SQL may hold several statements (the last one's rows are answered). */
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<Row>>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

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

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const schema = options.schema;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    // The name is spliced into SQL and a connection option, so it must be a plain identifier.
    throw new PayCheckoutError('store-config', 'Database schema must match [a-z_][a-z0-9_]*');
  }
  return options.url ? openPostgres(options.url, schema) : openPGlite(options.dataDir, schema);
}

interface PGliteResults<Row> {
  rows: Row[];
  affectedRows?: number;
}

interface PGliteLike {
  query<Row>(sql: string, params?: unknown[]): Promise<PGliteResults<Row>>;
  exec(sql: string): Promise<PGliteResults<Record<string, unknown>>[]>;
}

async function openPGlite(
  dataDir: string | undefined,
  schema: string | undefined,
): Promise<Database> {
  const db = dataDir ? new PGlite(dataDir) : new PGlite();
  await db.waitReady;
  const run = async <Row>(q: PGliteLike, sql: string, params?: unknown[]) => {
    // Without parameters use the simple protocol, as `pg` does, so that a migration may hold
    // several statements (PGlite's `query` refuses them); the answer is the last statement's.
    const result =
      params && params.length > 0
        ? await q.query<Row>(sql, params)
        : ((await q.exec(sql)).at(-1) as PGliteResults<Row> | undefined);
    const rows = result?.rows ?? [];
    // PGlite counts only written rows in affectedRows (0 for a select).
    return { rows, rowCount: rows.length || (result?.affectedRows ?? 0) };
  };
  if (schema) {
    // One connection: a session-level search_path holds for every later query.
    await db.exec(`create schema if not exists "${schema}"; set search_path to "${schema}"`);
  }
  return {
    kind: 'pglite',
    query: (sql, params) => run(db, sql, params),
    // PGlite has one connection and serialises transactions behind its own lock.
    transaction: (fn) =>
      db.transaction((tx) => fn({ query: (sql, params) => run(tx, sql, params) })),
    close: () => db.close(),
  };
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
      try {
        await client.query('begin');
        const value = await fn({ query: (sql, params) => run(client, sql, params) });
        await client.query('commit');
        return value;
      } catch (error) {
        await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        client.release();
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
