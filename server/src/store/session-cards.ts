/**
 * The saved cards a checkout session offers: card references the store holds, each under a handle
 * of its own (random, and unique across sessions) that the browser sees instead of the
 * reference. A handle names one card in one session: another session's handle, a made-up one or
 * a card the session does not offer are all simply not found.
 */
import { randomBytes } from 'node:crypto';
import { mapCardRef, type StoredCardRef } from './card-refs.js';
import { CardRefNotHeldError } from './errors.js';
import type { JsonObject } from './orders.js';
import type { Executor } from './sql.js';

export interface OfferedCard {
  handle: string;
  cardRef: StoredCardRef;
  /**
   * The customer the card's order carried (the order row it was made from keeps it): what a
   * payment with this card need not ask again. Null for an order from before that was kept.
   */
  keptCustomer: JsonObject | null;
}

/** 24 random bytes, base64url: nothing a browser can guess. */
function newHandle(): string {
  return randomBytes(24).toString('base64url');
}

function mapOffered(row: Record<string, unknown>): OfferedCard {
  return {
    handle: String(row.handle),
    cardRef: mapCardRef(row),
    keptCustomer: (row.kept_customer as JsonObject | null) ?? null,
  };
}

export function createSessionCardRepository(q: Executor) {
  // The card keeps its order's customer: the order row it was made from holds it (one copy).
  const OFFERED = `select c.handle, r.*, o.customer as kept_customer
                     from checkout_session_cards c
                     join card_refs r on r.id = c.card_ref_id
                     join orders o on o.id = r.order_id`;
  return {
    /**
     * Offers `cardRefIds` in the session; run inside the transaction that creates it. Each must be
     * held and not forgotten: its row is share-locked until the transaction ends, so a forget
     * racing with it waits, then sees the offer (and refuses). Throws CardRefNotHeldError,
     * naming the first one that is not, and offers none.
     */
    async offer(sessionId: string, cardRefIds: readonly string[]): Promise<void> {
      if (cardRefIds.length === 0) return;
      const { rows } = await q.query(
        `select id from card_refs where id = any($1::text[]) and forgotten_at is null
         order by id for share`,
        [[...cardRefIds]],
      );
      const held = new Set(rows.map((row) => String(row.id)));
      const missing = cardRefIds.find((id) => !held.has(id));
      if (missing !== undefined) throw new CardRefNotHeldError(missing);
      for (const id of cardRefIds) {
        await q.query(
          'insert into checkout_session_cards (session_id, card_ref_id, handle) values ($1, $2, $3)',
          [sessionId, id, newHandle()],
        );
      }
    },

    /** What the session offers, most recent reference first; forgotten ones left out. */
    async offered(sessionId: string): Promise<OfferedCard[]> {
      const { rows } = await q.query(
        `${OFFERED} where c.session_id = $1 and r.forgotten_at is null order by r.seq desc`,
        [sessionId],
      );
      return rows.map(mapOffered);
    },

    /** The card behind `handle` in this session only; null for anything else. */
    async byHandle(sessionId: string, handle: string): Promise<OfferedCard | null> {
      const { rows } = await q.query(
        `${OFFERED} where c.session_id = $1 and c.handle = $2 and r.forgotten_at is null`,
        [sessionId, handle],
      );
      return rows[0] ? mapOffered(rows[0]) : null;
    },

    /**
     * The sessions that may still be paid with this reference: open and not past their expiry,
     * or paying (a payment with it may be under way, and a decline gives the list back).
     */
    async liveSessionsOffering(cardRefId: string): Promise<string[]> {
      const { rows } = await q.query(
        `select s.id from checkout_session_cards c join checkout_sessions s on s.id = c.session_id
          where c.card_ref_id = $1
            and (s.state = 'paying' or (s.state = 'open' and s.expires_at > now()))
          order by s.created_at`,
        [cardRefId],
      );
      return rows.map((row) => String(row.id));
    },
  };
}

export type SessionCardRepository = ReturnType<typeof createSessionCardRepository>;
