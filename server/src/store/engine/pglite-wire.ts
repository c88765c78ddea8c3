/**
 * One call of a prepared statement on PGlite's wire: the bytes sent (Bind, Execute, Sync) and the
 * rows read back, for pglite-prepared.ts.
 *
 * PGlite's own serializer builds a Bind through two growable writers and copies it twice, and its
 * result parser rebuilds each row from the row description with `Object.fromEntries`; per session
 * read that was about a tenth of the backend's CPU time, more than the WASM Postgres spent
 * running the query (test/bench/RESULTS.md, "Where the time went"). Here a Bind is written once
 * into a buffer of its exact size, and rows are built from the statement's fields, parsed with
 * PGlite's own type parsers. Every value travels as text, as PGlite sends and asks for them.
 */
import type { PGlite } from '@electric-sql/pglite';

type BackendMessage = Awaited<ReturnType<PGlite['execProtocolStream']>>[number];

/** A column of a statement's RowDescription. */
export interface Field {
  name: string;
  dataTypeID: number;
}

const encoder = new TextEncoder();

/** Execute (unnamed portal, all rows) then Sync: the same bytes on every call. */
const EXECUTE_SYNC = Uint8Array.of(0x45, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0x53, 0, 0, 0, 4);

/** The statement's name as the NUL-terminated bytes a Bind carries (made once per statement). */
export function statementNameBytes(name: string): Uint8Array {
  const bytes = encoder.encode(name);
  const out = new Uint8Array(bytes.length + 1);
  out.set(bytes);
  return out;
}

/**
 * Bind `values` (text, or null for SQL NULL) to the statement into the unnamed portal, then
 * Execute and Sync: one message for one round trip into the WASM Postgres.
 */
export function bindExecuteSync(name: Uint8Array, values: readonly (string | null)[]): Uint8Array {
  const encoded = values.map((value) => (value === null ? null : encoder.encode(value)));
  // Length field, portal "" (its NUL), the name, no parameter format codes (all text), the count,
  // each value with its length, no result format codes (all text).
  let length = 4 + 1 + name.length + 2 + 2 + 2;
  for (const value of encoded) length += 4 + (value?.length ?? 0);
  const out = new Uint8Array(1 + length + EXECUTE_SYNC.length);
  const view = new DataView(out.buffer);
  out[0] = 0x42; // 'B'
  view.setInt32(1, length);
  let at = 6; // after the portal's NUL
  out.set(name, at);
  at += name.length;
  view.setInt16(at, 0);
  view.setInt16(at + 2, encoded.length);
  at += 4;
  for (const value of encoded) {
    view.setInt32(at, value ? value.length : -1);
    at += 4;
    if (value) {
      out.set(value, at);
      at += value.length;
    }
  }
  view.setInt16(at, 0);
  out.set(EXECUTE_SYNC, at + 2);
  return out;
}

/** The fields of a RowDescription among `messages` (none: the statement returns no rows). */
export function fieldsOf(messages: readonly BackendMessage[]): Field[] | undefined {
  const described = messages.find((m) => m.name === 'rowDescription') as
    | { fields: Field[] }
    | undefined;
  return described?.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID }));
}

/** Commands whose tag ends in the number of rows they wrote. */
const WRITES = new Set(['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE']);

export interface CallResult<Row> {
  rows: Row[];
  /** Rows an INSERT, UPDATE, DELETE, COPY or MERGE wrote (0 for a select), as PGlite counts. */
  affectedRows: number;
}

/** The rows and the written-row count of one Bind/Execute/Sync answer. */
export function resultOf<Row>(
  messages: readonly BackendMessage[],
  fields: readonly Field[] | undefined,
  parsers: PGlite['parsers'],
): CallResult<Row> {
  const rows: Row[] = [];
  let affectedRows = 0;
  for (const message of messages) {
    if (message.name === 'dataRow' && fields) {
      const values = (message as unknown as { fields: (string | null)[] }).fields;
      const row: Record<string, unknown> = {};
      for (let i = 0; i < fields.length; i++) {
        const field = fields[i] as Field;
        const text = values[i] ?? null;
        const parse = parsers[field.dataTypeID];
        row[field.name] = text === null ? null : parse ? parse(text, field.dataTypeID) : text;
      }
      rows.push(row as Row);
    } else if (message.name === 'commandComplete') {
      const tag = (message as unknown as { text: string }).text.split(' ');
      if (WRITES.has(tag[0] ?? '')) affectedRows += Number.parseInt(tag.at(-1) ?? '0', 10);
    }
  }
  return { rows, affectedRows };
}
