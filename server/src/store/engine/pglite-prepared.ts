/**
 * Parameterised queries on PGlite as named prepared statements, each SQL text parsed, planned and
 * described once per database and then run with one Bind/Execute/Sync round trip into the WASM
 * Postgres.
 *
 * PGlite's own `query()` sends every call as an unnamed statement in six round trips (Parse,
 * Describe, Bind, Describe, Execute, Sync), so Postgres parses and plans the same few dozen SQL
 * texts again on every call; that was most of a query's cost (test/bench/RESULTS.md: about half
 * of the backend's CPU time in a pay cycle was PGlite). The repositories use a fixed set of SQL
 * texts with `$n` parameters, so the statements stay few.
 *
 * Around each call, only what the call needs (profiled per session read, test/bench/RESULTS.md):
 * - the row description Postgres gave when the statement was prepared is reused, so a call asks
 *   for none (a Describe per call was up to a third of a small query's WASM time);
 * - outside a transaction no PGlite lock is taken: the one caller (shared-pglite.ts) already runs
 *   every use of the PGlite under its own lock, and PGlite's two locks were two more promise
 *   chains per query. Inside PGlite's `transaction()` its per-query lock is kept, as its own
 *   `tx.query()` takes it;
 * - the file-system sync after a statement outside a transaction runs only on a file system that
 *   has one (IndexedDB, OPFS): on a data folder (Node's file system) or in memory PGlite's is a
 *   no-op that still costs a lock;
 * - the answer is parsed straight into messages (`execProtocolStream`), without PGlite's copy of
 *   the raw bytes, and the Bind and the rows are encoded and decoded by pglite-wire.ts.
 * Kept as PGlite's `query()` does it: its type serializers and parsers, and the database error
 * with its SQLSTATE `code`. Postgres re-plans a prepared statement by itself when a table it
 * reads changes or `search_path` differs from when it was planned; a `select *` whose columns
 * changed is prepared (and described) again.
 */
import { MemoryFS, type PGlite, parse, protocol, type Transaction } from '@electric-sql/pglite';
import {
  bindExecuteSync,
  type CallResult,
  type Field,
  fieldsOf,
  resultOf,
  statementNameBytes,
} from './pglite-wire.js';

interface Statement {
  /** The statement's name as a Bind carries it. */
  name: Uint8Array;
  /** The parameter type OIDs Postgres inferred, to serialise each value as PGlite would. */
  paramTypes: number[];
  /** The columns of its rows, from its RowDescription (none: it returns no rows). */
  fields: Field[] | undefined;
}

/** The PGlite method this file relies on beyond the public API (PGlite 0.5's per-query lock). */
interface PGliteLocks {
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
}

/** The file-system sync of Emscripten's built-in file systems (Node's, memory): it does nothing. */
const BUILTIN_FS_SYNC = (Object.getPrototypeOf(MemoryFS.prototype) as MemoryFS).syncToFs;

/** More distinct texts than this means something builds SQL per call: stop preparing new ones. */
const MAX_STATEMENTS = 500;

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export interface PreparedQueries {
  /**
   * Runs `sql` with `params`, on `tx` when called from inside PGlite's `transaction()` callback.
   * Outside one, the caller must hold the only lock on this PGlite (nothing else may run on it
   * meanwhile).
   */
  query<Row>(sql: string, params: unknown[], tx?: Transaction): Promise<CallResult<Row>>;
}

/** Postgres refuses a prepared `select *` whose table gained or lost columns since: re-prepare. */
function planOutdated(error: unknown): boolean {
  return (error as { code?: unknown }).code === '0A000';
}

export function preparedQueries(db: PGlite): PreparedQueries {
  const locks = db as unknown as PGliteLocks;
  const { serialize } = protocol;
  const statements = new Map<string, Statement>();
  const syncsFiles = db.fs !== undefined && db.fs.syncToFs !== BUILTIN_FS_SYNC;
  let named = 0;

  const prepare = async (sql: string): Promise<Statement> => {
    named += 1;
    const name = `pay_checkout_${named}`;
    const messages = await db.execProtocolStream(
      concat([
        serialize.parse({ name, text: sql, types: [] }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    const statement = {
      name: statementNameBytes(name),
      paramTypes: parse.parseDescribeStatementResults(messages),
      fields: fieldsOf(messages),
    };
    statements.set(sql, statement);
    return statement;
  };

  const execute = async <Row>(statement: Statement, params: unknown[]) => {
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = db.serializers[statement.paramTypes[i] ?? 0];
      return serializer ? serializer(value) : String(value);
    });
    const messages = await db.execProtocolStream(bindExecuteSync(statement.name, values), {
      syncToFs: false,
    });
    return resultOf<Row>(messages, statement.fields, db.parsers);
  };

  const run = async <Row>(sql: string, params: unknown[], inTransaction: boolean) => {
    const known = statements.get(sql);
    if (!known) return execute<Row>(await prepare(sql), params);
    try {
      return await execute<Row>(known, params);
    } catch (error) {
      // Inside a transaction the error has aborted it: the caller's retry is the only way.
      if (inTransaction || !planOutdated(error)) throw error;
      return execute<Row>(await prepare(sql), params);
    }
  };

  return {
    async query<Row>(sql: string, params: unknown[], tx?: Transaction) {
      if (!statements.has(sql) && statements.size >= MAX_STATEMENTS) {
        const { rows, affectedRows } = await (tx ?? db).query<Row>(sql, params);
        return { rows, affectedRows: affectedRows ?? 0 };
      }
      if (tx) return locks._runExclusiveQuery(() => run<Row>(sql, params, true));
      const result = await run<Row>(sql, params, false);
      // As PGlite's query() does after a statement outside a transaction.
      if (syncsFiles) await db.syncToFs();
      return result;
    },
  };
}
