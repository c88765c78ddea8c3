/**
 * A read answered from memory while the database has not changed since it last ran.
 *
 * Only on embedded PGlite: its data folder belongs to this one process, so every change passes
 * through its Database handles, which count them (`Database.writes`, engine/shared-pglite.ts).
 * Any statement or transaction started since the answer was read, by any store on that PGlite and
 * whatever it touched, makes the next call read again: the answer is the one a query started at
 * the same moment would give. On PostgreSQL other processes may write, so every call queries.
 *
 * Worth it where one read serves most requests: each widget request reads its session and order
 * (session-reads.ts), and the widget re-reads them while nothing happens; that query was a third
 * of a session read's CPU time (test/bench/RESULTS.md, "Where the time went").
 */
import type { QueryResult } from './engine/types.js';
import type { Executor } from './sql.js';

/** Answers kept at most; they are all dropped at the next change anyway. */
const MAX_ANSWERS = 1000;

/**
 * `sql` with one parameter, the key; its rows are shared by every caller that gets them from
 * memory, so they must hold only values no one can change (strings, numbers, null).
 */
export function rememberedQuery<Row>(
  q: Executor,
  sql: string,
): (key: string) => Promise<QueryResult<Row>> {
  const { readOnly, writes } = q;
  if (!readOnly || !writes) return (key) => q.query<Row>(sql, [key]);
  const answers = new Map<string, QueryResult<Row>>();
  /** The count of writes when the answers in `answers` were read. */
  let readAt = writes();
  return async (key) => {
    const now = writes();
    if (now !== readAt) {
      answers.clear();
      readAt = now;
    }
    const known = answers.get(key);
    if (known) return known;
    const answer = await readOnly<Row>(sql, [key]);
    // Something started meanwhile: the next call reads again anyway, so keep nothing.
    if (writes() === now) {
      if (answers.size >= MAX_ANSWERS) answers.clear();
      answers.set(key, answer);
    }
    return answer;
  };
}
