/**
 * Checkout sessions: what the merchant's server fixed (amount, currency, intent, description,
 * customer, return URL) and where the shopper is (open -> paying -> completed, or cancelled /
 * expired). A session's order exists from its first moment (`awaiting-payment`), created in the
 * same transaction. A session takes exactly one payment: `claimForPayment` moves it open -> paying
 * and its order awaiting-payment -> new in one transaction, so a double submit gets the same
 * order back. A session that ends unpaid (`expire`) leaves its order `expired`. The session's
 * orderId and each further attempt's client_orderid are claimed, in the transaction that writes
 * them, in the one namespace of every gateway client_orderid (client-order-ids.ts).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type {
  CollectGroup,
  CollectMode,
  Intent,
  PayMode,
  SaveCardMode,
  SavedCardCvc,
  SessionState,
} from '../../../contract/api-types.js';
import { attemptClientOrderId, exhausted, isRetryable, SALTED_TRIES } from './attempt-rules.js';
import { ClientOrderIdTakenError, createClientOrderIdRepository } from './client-order-ids.js';
import { StoreError } from './errors.js';
import {
  createOrderRepository,
  type JsonObject,
  mapOrder,
  type NewOrder,
  type Order,
} from './orders.js';
import { maskCardNumbers, sanitizeCustomer, sanitizeRecord } from './sanitize.js';
import { createSessionCardRepository } from './session-cards.js';
import {
  assertMinor,
  type Executor,
  inTransaction,
  json,
  toDate,
  toInt,
  toStringOrNull,
} from './sql.js';
import { assertMoves } from './state-moves.js';

/** What the element asks the shopper, per group (contract CollectMode): every group named. */
export type CollectSetting = Record<CollectGroup, CollectMode>;

/** A stored `collect`: a group it does not name is `auto` (the default; rows before it name none). */
function mapCollect(value: unknown): CollectSetting {
  const stored = (value ?? {}) as Partial<CollectSetting>;
  return {
    email: stored.email ?? 'auto',
    phone: stored.phone ?? 'auto',
    billingAddress: stored.billingAddress ?? 'auto',
  };
}

export interface CheckoutSession {
  id: string;
  /** The merchant's order id; the session's order is created with it as `client_orderid`. */
  clientOrderId: string;
  amountMinor: number;
  currency: string;
  intent: Intent;
  description: string;
  /** What the merchant sent of the shopper (each field optional since issue 35). */
  customer: JsonObject;
  /** Which groups of shopper data the element asks for. */
  collect: CollectSetting;
  /** The country the element's address part starts on (ISO 3166-1 alpha-2), or null. */
  countryHint: string | null;
  returnUrl: string | null;
  metadata: JsonObject;
  /** How the shopper may pay: the card form (`direct`), the gateway's page (`hosted`), or both. */
  modes: PayMode[];
  state: SessionState;
  /** How many payment attempts the session takes (1-10). */
  maxAttempts: number;
  /** Whether a new card is kept once paid: asked, always, or never. */
  saveCard: SaveCardMode;
  /** Whether a saved card is paid with its security code. */
  savedCardCvc: SavedCardCvc;
  /** Whether it offers saved cards (`savedCards` at creation): else there is no list to read. */
  offersSavedCards: boolean;
  /** Its current payment attempt (the kept one once approved): an order row's id. */
  orderId: string | null;
  expiresAt: Date;
  /** How many times the shopper gave it more time (POST /widget/extend). */
  extensions: number;
  createdAt: Date;
  updatedAt: Date;
  version: number;
}

export interface NewCheckoutSession {
  /** Defaults to a random UUID. */
  id?: string;
  clientOrderId: string;
  amountMinor: number;
  currency: string;
  intent: Intent;
  description?: string;
  customer?: JsonObject;
  /** Defaults to `auto` for every group. */
  collect?: Partial<CollectSetting>;
  countryHint?: string | null;
  returnUrl?: string | null;
  metadata?: JsonObject;
  /** Defaults to both. */
  modes?: readonly PayMode[];
  /** Defaults to 5. */
  maxAttempts?: number;
  /** Defaults to `never`. */
  saveCard?: SaveCardMode;
  /** Defaults to `required`. */
  savedCardCvc?: SavedCardCvc;
  /** Card references (held, not forgotten) the session offers; none by default. */
  savedCards?: readonly string[];
  expiresAt: Date;
}

/** Order fields known when the shopper pays (never card data beyond brand / last four). */
export type PaymentOrderFields = Pick<
  NewOrder,
  | 'merchantOrigin'
  | 'cardBrand'
  | 'cardLast4'
  | 'cardMasked'
  | 'nextAction'
  | 'saveCard'
  | 'savedCardRef'
  | 'customer'
>;

export type ClaimResult =
  | { won: true; session: CheckoutSession; order: Order }
  | { won: false; reason: 'not-found'; session: null; order: null }
  /** Already paying or done: `order` is the payment under way (a double submit). */
  | { won: false; reason: 'already-claimed'; session: CheckoutSession; order: Order | null }
  /** Its last attempt failed and it takes no more. */
  | { won: false; reason: 'attempts-exhausted'; session: CheckoutSession; order: Order | null }
  /** `expiry`: this claim found the session past its expiry and expired it (and its order). */
  | {
      won: false;
      reason: 'expired';
      session: CheckoutSession;
      order: Order | null;
      expiry?: ExpiryWrite;
    }
  | { won: false; reason: 'closed'; session: CheckoutSession; order: Order | null };

export interface SessionWrite {
  won: boolean;
  session: CheckoutSession | null;
}

/** An open session ended unpaid: `won` when this call ended it; `order` as it now stands. */
export interface ExpiryWrite {
  won: boolean;
  session: CheckoutSession | null;
  order: Order | null;
}

export function mapSession(row: Record<string, unknown>): CheckoutSession {
  return {
    id: String(row.id),
    clientOrderId: String(row.client_orderid),
    amountMinor: toInt(row.amount_minor, 'checkout_sessions.amount_minor'),
    currency: String(row.currency),
    intent: row.intent as Intent,
    description: String(row.description),
    customer: row.customer as JsonObject,
    collect: mapCollect(row.collect),
    countryHint: toStringOrNull(row.country_hint),
    returnUrl: toStringOrNull(row.return_url),
    metadata: row.metadata as JsonObject,
    modes: row.modes as PayMode[],
    state: row.state as SessionState,
    maxAttempts: toInt(row.max_attempts ?? 5, 'checkout_sessions.max_attempts'),
    saveCard: (row.save_card ?? 'never') as SaveCardMode,
    savedCardCvc: (row.saved_card_cvc ?? 'required') as SavedCardCvc,
    offersSavedCards: row.offers_saved_cards === true,
    orderId: toStringOrNull(row.order_id),
    expiresAt: toDate(row.expires_at),
    extensions: toInt(row.extensions ?? 0, 'checkout_sessions.extensions'),
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
    version: toInt(row.version, 'checkout_sessions.version'),
  };
}

/**
 * Claims attempt `n`'s client_orderid for order row `orderRowId`, in the caller's transaction.
 * `<order id>-<n>` may be held already (the merchant used it for a session or an operation of its
 * own): the attempt then takes `<order id>-<6 hex>-<n>`, so it is never sent under an id that is
 * someone else's, and the shopper pays on. Throws ClientOrderIdTakenError (rolling the claim
 * back: the session stays open) only if every try is held.
 */
async function claimAttemptId(
  tx: Executor,
  orderId: string,
  n: number,
  orderRowId: string,
): Promise<string> {
  const ids = createClientOrderIdRepository(tx);
  const owner = { kind: 'attempt' as const, id: orderRowId };
  const plain = attemptClientOrderId(orderId, n);
  if (await ids.tryClaim(plain, owner)) return plain;
  let salted = plain;
  for (let i = 0; i < SALTED_TRIES; i++) {
    salted = attemptClientOrderId(orderId, n, randomBytes(3).toString('hex'));
    if (await ids.tryClaim(salted, owner)) return salted;
  }
  throw new ClientOrderIdTakenError(salted, await ids.holderOf(salted));
}

export function createSessionRepository(q: Executor) {
  const get = async (id: string, on = q as Executor): Promise<CheckoutSession | null> => {
    const { rows } = await on.query('select * from checkout_sessions where id = $1', [id]);
    return rows[0] ? mapSession(rows[0]) : null;
  };
  const orderOf = async (session: CheckoutSession, on: Executor): Promise<Order | null> => {
    if (!session.orderId) return null;
    const { rows } = await on.query('select * from orders where id = $1', [session.orderId]);
    return rows[0] ? mapOrder(rows[0]) : null;
  };
  const linkOrder = async (on: Executor, sessionId: string, orderId: string) => {
    const { rows } = await on.query(
      'update checkout_sessions set order_id = $2 where id = $1 returning *',
      [sessionId, orderId],
    );
    return mapSession(rows[0] as Record<string, unknown>);
  };
  /** See `expire`; inside the caller's transaction. */
  const expireIn = async (
    tx: Executor,
    sessionId: string,
    dueOnly: boolean,
  ): Promise<ExpiryWrite> => {
    assertMoves('session', ['open'], 'expired');
    const { rows } = await tx.query(
      `update checkout_sessions set state = 'expired', updated_at = now(), version = version + 1
       where id = $1 and state = 'open' ${dueOnly ? 'and expires_at <= now()' : ''} returning *`,
      [sessionId],
    );
    if (!rows[0]) {
      const session = await get(sessionId, tx);
      return { won: false, session, order: session ? await orderOf(session, tx) : null };
    }
    const session = mapSession(rows[0]);
    if (!session.orderId) return { won: true, session, order: null };
    const ended = await createOrderRepository(tx).transition(session.orderId, {
      from: ['awaiting-payment'],
      to: 'expired',
    });
    return { won: true, session, order: ended.order };
  };

  return {
    /**
     * The session, its order (`awaiting-payment`, the session's own fields) and the saved cards it
     * offers, together; none of them when a card is not held (CardRefNotHeldError).
     */
    create(input: NewCheckoutSession): Promise<CheckoutSession> {
      assertMinor(input.amountMinor, 'amountMinor');
      const id = input.id ?? randomUUID();
      return inTransaction(q, async (tx) => {
        // The merchant's orderId (also its first attempt's client_orderid), in the one namespace.
        await createClientOrderIdRepository(tx).claim(input.clientOrderId, { kind: 'session', id });
        const { rows } = await tx.query(
          `insert into checkout_sessions (id, client_orderid, amount_minor, currency, intent,
             description, customer, return_url, metadata, expires_at, modes, max_attempts,
             save_card, saved_card_cvc, offers_saved_cards, collect, country_hint)
           values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9::jsonb, $10, $11::text[], $12, $13,
             $14, $15, $16::jsonb, $17)
           returning *`,
          [
            id,
            input.clientOrderId,
            input.amountMinor,
            input.currency,
            input.intent,
            // Any Luhn-valid 12-19 digit run masked, as in metadata values: the card forms take
            // such a number as a card, whatever its brand.
            maskCardNumbers(input.description ?? ''),
            // Merchant-supplied JSON: sanitised too, so a PAN pasted there never lands on disk.
            json(sanitizeCustomer(input.customer ?? {})),
            input.returnUrl ?? null,
            json(sanitizeRecord(input.metadata ?? {})),
            input.expiresAt,
            [...(input.modes ?? ['direct', 'hosted'])],
            input.maxAttempts ?? 5,
            input.saveCard ?? 'never',
            input.savedCardCvc ?? 'required',
            (input.savedCards?.length ?? 0) > 0,
            json(mapCollect(input.collect)),
            input.countryHint ?? null,
          ],
        );
        if (!rows[0]) throw new StoreError('store-insert', 'Session insert returned no row');
        const session = mapSession(rows[0]);
        const order = await createOrderRepository(tx).create({
          clientOrderId: session.clientOrderId,
          sessionId: session.id,
          status: 'awaiting-payment',
          intent: session.intent,
          amountMinor: session.amountMinor,
          currency: session.currency,
        });
        await createSessionCardRepository(tx).offer(session.id, input.savedCards ?? []);
        return linkOrder(tx, session.id, order.id);
      });
    },

    get: (id: string) => get(id),

    async getByClientOrderId(clientOrderId: string): Promise<CheckoutSession | null> {
      const { rows } = await q.query('select * from checkout_sessions where client_orderid = $1', [
        clientOrderId,
      ]);
      return rows[0] ? mapSession(rows[0]) : null;
    },

    /**
     * open -> paying exactly once, its order awaiting-payment -> new with `fields` (the order keeps
     * the session's amount, currency, intent and order id: nothing the browser sends can change
     * them). An open session past its expiry is expired instead (`expiry` says so).
     */
    claimForPayment(sessionId: string, fields: PaymentOrderFields = {}): Promise<ClaimResult> {
      return inTransaction(q, async (tx) => {
        assertMoves('session', ['open'], 'paying');
        const claimed = await tx.query(
          `update checkout_sessions set state = 'paying', updated_at = now(), version = version + 1
           where id = $1 and state = 'open' and expires_at > now() returning *`,
          [sessionId],
        );
        if (!claimed.rows[0]) {
          // Lost: say why, from the row as it now stands (an expired one is marked so).
          const expiry = await expireIn(tx, sessionId, true);
          const session = expiry.session;
          if (!session) return { won: false, reason: 'not-found', session: null, order: null };
          if (exhausted(session, expiry.order)) {
            return { won: false, reason: 'attempts-exhausted', session, order: expiry.order };
          }
          if (session.state === 'paying' || session.state === 'completed') {
            return { won: false, reason: 'already-claimed', session, order: expiry.order };
          }
          if (session.state === 'expired') {
            return {
              won: false,
              reason: 'expired',
              session,
              order: expiry.order,
              ...(expiry.won ? { expiry } : {}),
            };
          }
          return { won: false, reason: 'closed', session, order: expiry.order };
        }
        const session = mapSession(claimed.rows[0]);
        const orders = createOrderRepository(tx);
        if (!session.orderId) {
          // A session from before orders were made with their session: its order starts now.
          const order = await orders.create({
            ...fields,
            clientOrderId: session.clientOrderId,
            sessionId: session.id,
            intent: session.intent,
            amountMinor: session.amountMinor,
            currency: session.currency,
          });
          return { won: true, session: await linkOrder(tx, session.id, order.id), order };
        }
        const current = await orders.get(session.orderId);
        if (current && isRetryable(current)) {
          const number = current.attempt + 1;
          const id = randomUUID();
          const clientOrderId = await claimAttemptId(tx, session.clientOrderId, number, id);
          const next = await orders.create({
            ...fields,
            id,
            clientOrderId,
            attempt: { number, merchantOrderId: session.clientOrderId },
            sessionId: session.id,
            intent: session.intent,
            amountMinor: session.amountMinor,
            currency: session.currency,
          });
          return { won: true, session: await linkOrder(tx, session.id, next.id), order: next };
        }
        const started = await orders.transition(session.orderId, {
          from: ['awaiting-payment'],
          to: 'new',
          patch: fields,
        });
        if (!started.won || !started.order) {
          // Only a claim moves an open session's order: anything else is a broken invariant.
          throw new StoreError(
            'store-invariant',
            `Order of open session ${session.id} is ${started.order?.status ?? 'missing'}`,
          );
        }
        return { won: true, session, order: started.order };
      });
    },

    /**
     * open -> expired, its order awaiting-payment -> expired, in one transaction. `dueOnly`: only
     * a session past its expiry (the sweeper's and a late claim's case), else any open one (the
     * merchant ends it early). Lost when the session is not open (or not due).
     */
    expire(sessionId: string, options: { dueOnly: boolean }): Promise<ExpiryWrite> {
      return inTransaction(q, (tx) => expireIn(tx, sessionId, options.dueOnly));
    },

    /**
     * More time for an open session not yet past its expiry: its expiry moves from `from` to `to`
     * and one more extension is counted, only while the stored expiry is still `from` (a second
     * click extends once) and fewer than `maxExtensions` were given. Null when lost: nothing
     * changed.
     */
    async extend(
      id: string,
      change: { from: Date; to: Date; maxExtensions: number },
    ): Promise<CheckoutSession | null> {
      const { rows } = await q.query(
        `update checkout_sessions set expires_at = $3, extensions = extensions + 1,
           updated_at = now(), version = version + 1
         where id = $1 and state = 'open' and expires_at = $2 and expires_at > now()
           and extensions < $4
         returning *`,
        [id, change.from, change.to, change.maxExtensions],
      );
      return rows[0] ? mapSession(rows[0]) : null;
    },

    /** Open sessions past their expiry, oldest first: the sweeper expires them. */
    async dueForExpiry(limit: number): Promise<string[]> {
      const { rows } = await q.query(
        `select id from checkout_sessions where state = 'open' and expires_at <= now()
         order by expires_at limit $1`,
        [limit],
      );
      return rows.map((row) => String(row.id));
    },

    /**
     * The session, its row locked until the caller's transaction ends: whoever settles one of its
     * attempts holds it, so two attempts approved at once are judged one after the other.
     */
    async lock(id: string): Promise<CheckoutSession | null> {
      const { rows } = await q.query('select * from checkout_sessions where id = $1 for update', [
        id,
      ]);
      return rows[0] ? mapSession(rows[0]) : null;
    },

    /**
     * The approved attempt the session keeps: its order from now on, and the session completed,
     * only while it takes a payment (open or paying): an ended session (expired, cancelled,
     * completed) keeps no late approval, which is reversed instead (payments/attempts.ts).
     */
    async keep(id: string, orderId: string): Promise<CheckoutSession | null> {
      const from = ['open', 'paying'] as const;
      assertMoves('session', from, 'completed');
      const { rows } = await q.query(
        `update checkout_sessions set order_id = $2, state = 'completed', updated_at = now(),
           version = version + 1
         where id = $1 and state = any($3::text[]) returning *`,
        [id, orderId, [...from]],
      );
      return rows[0] ? mapSession(rows[0]) : null;
    },

    /**
     * Moves the session to `to` only if its state is one of `from`. A move from one of `from` to
     * `to` that the table of moves lacks (state-moves.ts) is refused with StateMoveRefusedError
     * before anything is written.
     */
    async transition(
      id: string,
      change: { from: readonly SessionState[]; to: SessionState },
    ): Promise<SessionWrite> {
      assertMoves('session', change.from, change.to);
      const { rows } = await q.query(
        `update checkout_sessions set state = $2, updated_at = now(), version = version + 1
         where id = $1 and state = any($3::text[]) returning *`,
        [id, change.to, [...change.from]],
      );
      if (rows[0]) return { won: true, session: mapSession(rows[0]) };
      return { won: false, session: await get(id) };
    },
  };
}

export type SessionRepository = ReturnType<typeof createSessionRepository>;
