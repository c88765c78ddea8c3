/**
 * A checkout session and its order in one query: every widget request reads its session, and
 * most then read the order (session reads, long polls), so the two reads were two round trips
 * where one join will do. Each row comes back whole as JSON and goes through the repositories'
 * own row mappers, so the result is exactly what `sessions.get` and `orders.get` answer.
 *
 * `row_to_json`, not `to_jsonb`: the same values after JSON.parse (numbers, nested jsonb, arrays,
 * ISO timestamps), without building and sorting a jsonb value first, which made the query about
 * a third dearer in PGlite's WASM Postgres (test/bench/RESULTS.md, "Where the time went"). As
 * text, parsed here: on PGlite the answer is remembered until the database changes
 * (remembered-query.ts), and each caller gets objects of its own from the same text.
 */

import { mapOrder, type Order } from './orders.js';
import { rememberedQuery } from './remembered-query.js';
import { type CheckoutSession, mapSession } from './sessions.js';
import type { Executor } from './sql.js';

export interface SessionWithOrder {
  session: CheckoutSession;
  /** The session's order (null when it has none). */
  order: Order | null;
}

export function createSessionReadRepository(q: Executor) {
  const read = rememberedQuery<{ session: string; order: string | null }>(
    q,
    `select row_to_json(s)::text as session, row_to_json(o)::text as order
       from checkout_sessions s left join orders o on o.id = s.order_id
      where s.id = $1`,
  );
  return {
    async withOrder(sessionId: string): Promise<SessionWithOrder | null> {
      const row = (await read(sessionId)).rows[0];
      if (!row) return null;
      return {
        session: mapSession(JSON.parse(row.session)),
        order: row.order === null ? null : mapOrder(JSON.parse(row.order)),
      };
    },
  };
}

export type SessionReadRepository = ReturnType<typeof createSessionReadRepository>;
