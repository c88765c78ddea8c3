/**
 * Small helpers shared by the repositories: column value conversion (the two engines return
 * bigint and timestamps differently), JSON parameters, and transactions that nest.
 */

import type { Database, Queryable, QueryResult } from './engine/types.js';
import { StoreError, storeErrorOf } from './errors.js';

/** What a repository runs its SQL on: the database itself, or an open transaction. */
export type Executor = Queryable & Partial<Pick<Database, 'transaction' | 'readOnly' | 'writes'>>;

/**
 * `q` with the engine's errors in the store's terms (`storeErrorOf`: a unique violation is a
 * UniqueViolationError), in its transactions too: the repositories of a store run on this, so no
 * caller outside the store reads a database code. What `q` has (a transaction, `readOnly`,
 * `writes`), the answer has; what it lacks, the answer lacks.
 */
export function translatingErrors(q: Executor): Executor {
  const rethrow = (error: unknown): never => {
    throw storeErrorOf(error);
  };
  const { transaction, readOnly, writes } = q;
  const translated: Executor = {
    query: <Row>(sql: string, params?: unknown[]) => q.query<Row>(sql, params).catch(rethrow),
  };
  if (transaction) {
    translated.transaction = <T>(fn: (tx: Queryable) => Promise<T>) =>
      transaction
        .call<Executor, [(tx: Queryable) => Promise<T>], Promise<T>>(q, (tx) =>
          fn(translatingErrors(tx)),
        )
        .catch(rethrow);
  }
  if (readOnly) {
    translated.readOnly = <Row>(sql: string, params?: unknown[]) =>
      readOnly
        .call<Executor, [string, unknown[] | undefined], Promise<QueryResult<Row>>>(q, sql, params)
        .catch(rethrow);
  }
  if (writes) translated.writes = writes;
  return translated;
}

/** A queue of work read at a metrics scrape: how many, and the age of the oldest (0: none). */
export interface Backlog {
  count: number;
  oldestSeconds: number;
}

/** Runs `sql`, which answers one row of `n` and `oldest` (seconds, null when none), as a Backlog. */
export async function readBacklog(q: Executor, sql: string): Promise<Backlog> {
  const { rows } = await q.query<{ n: number; oldest: number | null }>(sql);
  return { count: Number(rows[0]?.n ?? 0), oldestSeconds: Number(rows[0]?.oldest ?? 0) };
}

/** Runs `fn` in a transaction, or inside the caller's transaction when already in one. */
export function inTransaction<T>(q: Executor, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return q.transaction ? q.transaction(fn) : fn(q);
}

/**
 * A bigint column as a JS number. `pg` answers int8 as a string, PGlite as a number; minor units
 * and sequence numbers stay far below 2^53, and we refuse to round silently if one does not.
 */
export function toInt(value: unknown, column: string): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(n)) {
    throw new StoreError('store-integer', `Column ${column} is not a safe integer`);
  }
  return n;
}

export function toIntOrNull(value: unknown, column: string): number | null {
  return value === null || value === undefined ? null : toInt(value, column);
}

/** Timestamps are `Date` everywhere in the store's types. */
export function toDate(value: unknown): Date {
  return value instanceof Date ? value : new Date(String(value));
}

export function toDateOrNull(value: unknown): Date | null {
  return value === null || value === undefined ? null : toDate(value);
}

export function toStringOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

/**
 * `text` as PostgreSQL can store it: it takes no NUL, in text or in jsonb (where the failed write
 * would be a 500 on a request that did nothing wrong: a gateway callback replayed with one more
 * parameter, say). A NUL becomes U+FFFD, as a decoder marks what it could not read.
 */
export function storableText(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text;
}

/** JSON.stringify's replacer for storableText: every string value, and every key. */
function storable(_key: string, value: unknown): unknown {
  if (typeof value === 'string') return storableText(value);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  if (!keys.some((k) => k.includes('\u0000'))) return value;
  return Object.fromEntries(
    keys.map((k) => [storableText(k), (value as Record<string, unknown>)[k]]),
  );
}

/**
 * A jsonb parameter. Always stringified by us: `pg` would turn a JS array into a SQL array, and
 * the SQL casts `$n::jsonb` so both engines read the same text.
 */
export function json(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const text = JSON.stringify(value);
  // Almost every value holds no NUL: one scan of the text, and the replacer only for the rest.
  return text.includes('\\u0000') ? JSON.stringify(value, storable) : text;
}

/** Money in minor units must be a non-negative safe integer before it reaches SQL. */
export function assertMinor(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new StoreError('store-amount', `${what} must be a non-negative integer of minor units`);
  }
}

/**
 * Builds `col = $n` assignments for the fields present in `patch`, from a whitelist mapping
 * camelCase fields to columns (with an optional cast). Parameters start after `offset`.
 */
export function assignments(
  patch: Record<string, unknown>,
  columns: Record<string, { column: string; cast?: string; encode?: (v: unknown) => unknown }>,
  offset: number,
): { sql: string[]; params: unknown[] } {
  const sql: string[] = [];
  const params: unknown[] = [];
  for (const [field, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    const spec = columns[field];
    if (!spec) throw new StoreError('store-field', `Unknown field ${field}`);
    params.push(spec.encode ? spec.encode(value) : value);
    sql.push(`${spec.column} = $${offset + params.length}${spec.cast ? `::${spec.cast}` : ''}`);
  }
  return { sql, params };
}

/** Opaque list cursors: base64url of a sequence number. */
export function encodeCursor(seq: number): string {
  return Buffer.from(String(seq)).toString('base64url');
}

export function decodeCursor(cursor: string): number {
  const n = cursorValue(cursor);
  if (n === undefined) throw new StoreError('store-cursor', 'Malformed list cursor');
  return n;
}

/** The sequence number a cursor names, if it is one encodeCursor could have made. */
function cursorValue(cursor: string): number | undefined {
  const text = Buffer.from(cursor, 'base64url').toString();
  if (!/^\d{1,16}$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) && encodeCursor(n) === cursor ? n : undefined;
}

/** Whether `cursor` is one a list could have given (a request's check, before the store). */
export function isListCursor(cursor: string): boolean {
  return cursorValue(cursor) !== undefined;
}
