/**
 * A checkout session and its order in one query: every widget request reads its session, and
 * most then read the order (session reads, long polls), so the two reads were two round trips
 * where one join will do. Each row comes back whole as JSON and goes through the repositories'
 * own row mappers, so the result is exactly what `sessions.get` and `orders.get` answer.
 *
 * `row_to_json`, not `to_jsonb`: the same values after JSON.parse (numbers, nested jsonb, arrays,
 * ISO timestamps), without building and sorting a jsonb value first, which made the query about
 * a third dearer in PGlite's WASM Postgres (test/bench/RESULTS.md, "Where the time went").
 */

import { mapOrder, type Order } from './orders.js';
import { type CheckoutSession, mapSession } from './sessions.js';
import type { Executor } from './sql.js';

export interface SessionWithOrder {
  session: CheckoutSession;
  /** The session's order (null when it has none). */
  order: Order | null;
}

export function createSessionReadRepository(q: Executor) {
  return {
    async withOrder(sessionId: string): Promise<SessionWithOrder | null> {
      const { rows } = await q.query<{
        session: Record<string, unknown>;
        order: Record<string, unknown> | null;
      }>(
        `select row_to_json(s) as session, row_to_json(o) as order
           from checkout_sessions s left join orders o on o.id = s.order_id
          where s.id = $1`,
        [sessionId],
      );
      const row = rows[0];
      if (!row) return null;
      return { session: mapSession(row.session), order: row.order ? mapOrder(row.order) : null };
    },
  };
}

export type SessionReadRepository = ReturnType<typeof createSessionReadRepository>;
