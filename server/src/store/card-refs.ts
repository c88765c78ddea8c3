/**
 * Card references this backend made: one per approved order at most (the shopper agreed to save
 * its card, or the merchant asked for one), with what may be shown of the card (brand, last
 * four). The expiry and the holder's name stay at the gateway (get-card-info), never here. The
 * merchant may forget one: it is offered to shoppers, and charged through this backend, no more.
 */
import { mapOrder, type Order } from './orders.js';
import { type Executor, toDate, toDateOrNull, toInt, toStringOrNull } from './sql.js';

export interface StoredCardRef {
  /** The gateway's card-ref-id. */
  id: string;
  /** Insertion order: the most recent reference is the highest. */
  seq: number;
  /** The order row (the approved attempt) whose card it keeps. */
  orderId: string;
  /** As the gateway names brands (`VISA`, ...), `UNKNOWN` when it named none. */
  brand: string;
  last4: string | null;
  createdAt: Date;
  /** When the merchant forgot it (it is offered and charged no more), else null. */
  forgottenAt: Date | null;
}

export interface NewCardRef {
  id: string;
  orderId: string;
  brand: string;
  last4: string | null;
}

export function mapCardRef(row: Record<string, unknown>): StoredCardRef {
  return {
    id: String(row.id),
    seq: toInt(row.seq, 'card_refs.seq'),
    orderId: String(row.order_id),
    brand: String(row.brand),
    last4: toStringOrNull(row.last4),
    createdAt: toDate(row.created_at),
    forgottenAt: toDateOrNull(row.forgotten_at),
  };
}

export function createCardRefRepository(q: Executor) {
  const one = async (sql: string, params: unknown[]): Promise<StoredCardRef | null> => {
    const { rows } = await q.query(sql, params);
    return rows[0] ? mapCardRef(rows[0]) : null;
  };
  const get = (id: string) => one('select * from card_refs where id = $1', [id]);

  return {
    /**
     * Keeps a reference once: `won` for the caller whose insert made the row (it announces it);
     * every other caller for the same order gets the order's row as it stands. A reference kept
     * for another order is a conflict, never that order's row: `cardRef` null and `heldBy` the
     * order row that keeps it (a gateway that named one reference for two orders).
     */
    async register(
      input: NewCardRef,
    ): Promise<{ won: boolean; cardRef: StoredCardRef | null; heldBy?: string }> {
      const made = await one(
        `insert into card_refs (id, order_id, brand, last4) values ($1, $2, $3, $4)
         on conflict do nothing returning *`,
        [input.id, input.orderId, input.brand, input.last4],
      );
      if (made) return { won: true, cardRef: made };
      const found = await one(
        `select * from card_refs where id = $1 or order_id = $2
          order by (order_id = $2) desc limit 1`,
        [input.id, input.orderId],
      );
      if (found && found.orderId !== input.orderId) {
        return { won: false, cardRef: null, heldBy: found.orderId };
      }
      return { won: false, cardRef: found };
    },

    get,

    /** The reference made from this order row, if any. */
    ofOrder: (orderRowId: string) =>
      one('select * from card_refs where order_id = $1', [orderRowId]),

    /** The references made from these order rows (a page of orders), by order row id. */
    async ofOrders(orderRowIds: readonly string[]): Promise<Map<string, StoredCardRef>> {
      const byOrder = new Map<string, StoredCardRef>();
      if (orderRowIds.length === 0) return byOrder;
      const { rows } = await q.query('select * from card_refs where order_id = any($1::text[])', [
        [...orderRowIds],
      ]);
      for (const ref of rows.map(mapCardRef)) byOrder.set(ref.orderId, ref);
      return byOrder;
    },

    /** The reference, its row locked until the caller's transaction ends (forget vs offers). */
    lock: (id: string) => one('select * from card_refs where id = $1 for update', [id]),

    /**
     * The reference, its row share-locked until the caller's transaction ends: a charge reserved
     * in that transaction and a forget (which locks the row for update) are serialised.
     */
    lockShared: (id: string) => one('select * from card_refs where id = $1 for share', [id]),

    /** Forgotten now, once: `null` when it was forgotten already (or is not held). */
    markForgotten: (id: string) =>
      one(
        `update card_refs set forgotten_at = now() where id = $1 and forgotten_at is null
         returning *`,
        [id],
      ),

    /**
     * Approved attempts whose card the shopper agreed to save and which have no reference yet,
     * untouched for `olderThanSeconds` (the attempt's own request tries first) and changed within
     * the last week, oldest first; one whose create-card-ref the gateway refused is left alone.
     */
    async dueToSave(options: { olderThanSeconds: number; limit?: number }): Promise<Order[]> {
      const { rows } = await q.query(
        `select o.* from orders o
          where o.save_card and o.status = 'approved' and o.reversal_reason is null
            and o.updated_at < now() - make_interval(secs => $1)
            and o.updated_at > now() - interval '7 days'
            and not exists (select 1 from card_refs r where r.order_id = o.id)
            and not exists (select 1 from merchant_operations m
                             where m.kind = 'card-ref' and m.client_id = o.client_orderid
                               and m.status in ('declined', 'error', 'filtered'))
          order by o.updated_at limit $2`,
        [options.olderThanSeconds, options.limit ?? 50],
      );
      return rows.map(mapOrder);
    },
  };
}

export type CardRefRepository = ReturnType<typeof createCardRefRepository>;
