/**
 * Payment links (migration 024): what the merchant fixed for a sale with no shop page, where the
 * link stands (active -> paid | expired | deactivated), and its visits, each a checkout session of
 * its own. Moves are compare-and-set on the state, so a sweep, a read and the merchant's
 * deactivation racing end the link once. The payment count moves only under the link's row lock
 * (`lockOfSession`), taken by whoever settles a visit's approval.
 */
import { randomBytes } from 'node:crypto';
import type { Intent } from '../../../contract/api-types.js';
import { StoreError } from './errors.js';
import type { JsonObject } from './orders.js';
import { maskCardNumbers, sanitizeCustomer, sanitizeRecord } from './sanitize.js';
import type { CollectSetting } from './sessions.js';
import {
  assertMinor,
  decodeCursor,
  type Executor,
  encodeCursor,
  json,
  toDate,
  toInt,
  toStringOrNull,
} from './sql.js';
import { assertMoves } from './state-moves.js';

export type PaymentLinkState = 'active' | 'paid' | 'expired' | 'deactivated';

export interface PaymentLink {
  id: string;
  seq: number;
  amountMinor: number;
  currency: string;
  intent: Intent;
  description: string;
  /** Each visit's orderId is `<prefix>-<n>`. */
  orderIdPrefix: string;
  customer: JsonObject;
  /** The session's `collect` setting, as given (null: the session's default). */
  collect: Partial<CollectSetting> | null;
  /** The session's `countryHint`. */
  countryHint: string | null;
  locale: string | null;
  returnUrl: string | null;
  metadata: JsonObject;
  reusable: boolean;
  /** A reusable link's cap; null: no cap (a one-off link takes one). */
  maxPayments: number | null;
  state: PaymentLinkState;
  /** Approved payments the link kept. */
  payments: number;
  visits: number;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewPaymentLink {
  amountMinor: number;
  currency: string;
  intent: Intent;
  description: string;
  orderIdPrefix: string;
  customer?: JsonObject;
  collect?: Partial<CollectSetting> | null;
  countryHint?: string | null;
  locale?: string | null;
  returnUrl?: string | null;
  metadata?: JsonObject;
  reusable: boolean;
  maxPayments?: number | null;
  expiresAt: Date;
}

export interface PaymentLinkVisit {
  token: string;
  linkId: string;
  n: number;
  sessionId: string;
  /** The approved attempt the link kept for this visit, if any. */
  paidOrderId: string | null;
  createdAt: Date;
}

export interface PaymentLinkPage {
  links: PaymentLink[];
  nextCursor: string | null;
}

/** How many payments the link takes in all: one for a one-off link. */
export function paymentCap(link: Pick<PaymentLink, 'reusable' | 'maxPayments'>): number {
  return link.reusable ? (link.maxPayments ?? Number.POSITIVE_INFINITY) : 1;
}

/** 128 random bits, base64url: nobody finds a link by counting or guessing. */
export function newPaymentLinkId(): string {
  return `plink_${randomBytes(16).toString('base64url')}`;
}

/** A visit's key in the page's URL: 128 random bits too (it opens that visit's session). */
export function newVisitToken(): string {
  return randomBytes(16).toString('base64url');
}

/** The shape of every id newPaymentLinkId makes (a request's check, before the store). */
export const PAYMENT_LINK_ID = /^plink_[A-Za-z0-9_-]{22}$/;

function mapLink(row: Record<string, unknown>): PaymentLink {
  return {
    id: String(row.id),
    seq: toInt(row.seq, 'payment_links.seq'),
    amountMinor: toInt(row.amount_minor, 'payment_links.amount_minor'),
    currency: String(row.currency),
    intent: row.intent as Intent,
    description: String(row.description),
    orderIdPrefix: String(row.order_id_prefix),
    customer: row.customer as JsonObject,
    collect: (row.collect ?? null) as Partial<CollectSetting> | null,
    countryHint: toStringOrNull(row.country_hint),
    locale: toStringOrNull(row.locale),
    returnUrl: toStringOrNull(row.return_url),
    metadata: row.metadata as JsonObject,
    reusable: row.reusable === true,
    maxPayments:
      row.max_payments === null ? null : toInt(row.max_payments, 'payment_links.max_payments'),
    state: row.state as PaymentLinkState,
    payments: toInt(row.payments, 'payment_links.payments'),
    visits: toInt(row.visits, 'payment_links.visits'),
    expiresAt: toDate(row.expires_at),
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

function mapVisit(row: Record<string, unknown>): PaymentLinkVisit {
  return {
    token: String(row.token),
    linkId: String(row.link_id),
    n: toInt(row.n, 'payment_link_visits.n'),
    sessionId: String(row.session_id),
    paidOrderId: toStringOrNull(row.paid_order_id),
    createdAt: toDate(row.created_at),
  };
}

export function createPaymentLinkRepository(q: Executor) {
  const one = async (sql: string, params: unknown[]): Promise<PaymentLink | null> => {
    const { rows } = await q.query(sql, params);
    return rows[0] ? mapLink(rows[0]) : null;
  };
  return {
    async create(input: NewPaymentLink): Promise<PaymentLink> {
      assertMinor(input.amountMinor, 'amountMinor');
      const link = await one(
        `insert into payment_links (id, amount_minor, currency, intent, description,
           order_id_prefix, customer, collect, locale, return_url, metadata, reusable,
           max_payments, expires_at, country_hint)
         values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9, $10, $11::jsonb, $12, $13, $14,
           $15)
         returning *`,
        [
          newPaymentLinkId(),
          input.amountMinor,
          input.currency,
          input.intent,
          // As a session's: a card number pasted in the description or JSON never lands on disk.
          maskCardNumbers(input.description),
          input.orderIdPrefix,
          json(sanitizeCustomer(input.customer ?? {})),
          input.collect ? json(input.collect) : null,
          input.locale ?? null,
          input.returnUrl ?? null,
          json(sanitizeRecord(input.metadata ?? {})),
          input.reusable,
          input.maxPayments ?? null,
          input.expiresAt,
          input.countryHint ?? null,
        ],
      );
      if (!link) throw new StoreError('store-insert', 'Payment link insert returned no row');
      return link;
    },

    get: (id: string) => one('select * from payment_links where id = $1', [id]),

    /** Newest first; `cursor` from the previous page. */
    async list(filter: { limit?: number; cursor?: string } = {}): Promise<PaymentLinkPage> {
      const limit = Math.min(Math.max(Math.trunc(filter.limit ?? 50), 1), 500);
      const { rows } = await q.query(
        `select * from payment_links ${filter.cursor ? 'where seq < $2' : ''}
         order by seq desc limit $1`,
        filter.cursor ? [limit + 1, decodeCursor(filter.cursor)] : [limit + 1],
      );
      const links = rows.slice(0, limit).map(mapLink);
      const last = links.at(-1);
      return { links, nextCursor: rows.length > limit && last ? encodeCursor(last.seq) : null };
    },

    /**
     * Ends an active link: `expired` (only once past its expiry) or `deactivated`. Answers the
     * link when this call moved it, null when it was not active (or not due).
     */
    end(id: string, to: 'expired' | 'deactivated'): Promise<PaymentLink | null> {
      assertMoves('payment link', ['active'], to);
      return one(
        `update payment_links set state = $2, updated_at = now(), version = version + 1
         where id = $1 and state = 'active' ${to === 'expired' ? 'and expires_at <= now()' : ''}
         returning *`,
        [id, to],
      );
    },

    /** Active links past their expiry, oldest first: the sweeper's work list. */
    async dueForExpiry(limit: number): Promise<string[]> {
      const { rows } = await q.query(
        `select id from payment_links where state = 'active' and expires_at <= now()
         order by expires_at limit $1`,
        [limit],
      );
      return rows.map((row) => String(row.id));
    },

    /** The next visit number of an active link (counted even when its session is never made). */
    async nextVisit(id: string): Promise<number | null> {
      const { rows } = await q.query(
        `update payment_links set visits = visits + 1, updated_at = now()
         where id = $1 and state = 'active' and expires_at > now() returning visits`,
        [id],
      );
      return rows[0] ? toInt(rows[0].visits, 'payment_links.visits') : null;
    },

    /** Records a visit's session under its token (newVisitToken: the page's key for it). */
    async addVisit(visit: {
      token: string;
      linkId: string;
      n: number;
      sessionId: string;
    }): Promise<PaymentLinkVisit> {
      const { rows } = await q.query(
        `insert into payment_link_visits (token, link_id, n, session_id) values ($1, $2, $3, $4)
         returning *`,
        [visit.token, visit.linkId, visit.n, visit.sessionId],
      );
      if (!rows[0]) throw new StoreError('store-insert', 'Visit insert returned no row');
      return mapVisit(rows[0]);
    },

    async visit(linkId: string, token: string): Promise<PaymentLinkVisit | null> {
      const { rows } = await q.query(
        'select * from payment_link_visits where link_id = $1 and token = $2',
        [linkId, token],
      );
      return rows[0] ? mapVisit(rows[0]) : null;
    },

    /**
     * Open checkout sessions of visits of links that take no more payment (paid, expired,
     * deactivated): the sweeper ends them, so another tab of a paid link cannot start a payment.
     */
    async openSessionsOfClosedLinks(limit: number): Promise<string[]> {
      const { rows } = await q.query(
        `select s.id from payment_link_visits v
           join payment_links l on l.id = v.link_id and l.state <> 'active'
           join checkout_sessions s on s.id = v.session_id and s.state = 'open'
         limit $1`,
        [limit],
      );
      return rows.map((row) => String(row.id));
    },

    /** The visits whose payment the link kept, oldest first. */
    async paidVisits(linkId: string): Promise<PaymentLinkVisit[]> {
      const { rows } = await q.query(
        `select * from payment_link_visits where link_id = $1 and paid_order_id is not null
         order by created_at, n`,
        [linkId],
      );
      return rows.map(mapVisit);
    },

    /** paidVisits of several links in one read (a list page), by link id. */
    async paidVisitsOfLinks(linkIds: readonly string[]): Promise<Map<string, PaymentLinkVisit[]>> {
      const byLink = new Map<string, PaymentLinkVisit[]>();
      if (linkIds.length === 0) return byLink;
      const { rows } = await q.query(
        `select * from payment_link_visits
          where link_id = any($1::text[]) and paid_order_id is not null
          order by created_at, n`,
        [[...linkIds]],
      );
      for (const visit of rows.map(mapVisit)) {
        byLink.set(visit.linkId, [...(byLink.get(visit.linkId) ?? []), visit]);
      }
      return byLink;
    },

    /**
     * The link of a visit's session with the link's row locked until the caller's transaction
     * ends, so two visits approved at once are counted one after the other. Null: no link's.
     */
    async lockOfSession(
      sessionId: string,
    ): Promise<{ link: PaymentLink; visit: PaymentLinkVisit } | null> {
      const { rows } = await q.query('select * from payment_link_visits where session_id = $1', [
        sessionId,
      ]);
      if (!rows[0]) return null;
      const visit = mapVisit(rows[0]);
      const link = await one('select * from payment_links where id = $1 for update', [
        visit.linkId,
      ]);
      return link ? { link, visit } : null;
    },

    /**
     * Counts the visit's approved attempt for the link (the caller holds the lock), and marks the
     * link `paid` when that was its last payment. Answers the link as it now stands.
     */
    async recordPayment(
      link: PaymentLink,
      visit: PaymentLinkVisit,
      orderId: string,
    ): Promise<PaymentLink> {
      await q.query('update payment_link_visits set paid_order_id = $2 where token = $1', [
        visit.token,
        orderId,
      ]);
      const full = link.payments + 1 >= paymentCap(link);
      if (full) assertMoves('payment link', [link.state], 'paid');
      const after = await one(
        `update payment_links set payments = payments + 1, updated_at = now(),
           version = version + 1 ${full ? ", state = 'paid'" : ''}
         where id = $1 returning *`,
        [link.id],
      );
      if (!after)
        throw new StoreError('store-invariant', `Payment link ${link.id} vanished under its lock`);
      return after;
    },
  };
}

export type PaymentLinkRepository = ReturnType<typeof createPaymentLinkRepository>;
