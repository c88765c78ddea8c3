/**
 * What both engines answer (database.ts opens PostgreSQL, shared-pglite.ts embedded PGlite): the
 * store's repositories and the sandbox run their SQL on these. Types only, so the engine files
 * import them from here and not from each other.
 */
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
  /**
   * Embedded PGlite only, where every change to the database passes through this process: how
   * many statements and transactions its stores have started other than through `readOnly`. A
   * read that ran when the count was n is still the database's answer while the count is n
   * (remembered-query.ts).
   */
  writes?(): number;
  /** `query` for a statement that changes nothing: it leaves `writes()` as it is. */
  readOnly?<Row = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
  ): Promise<QueryResult<Row>>;
}
