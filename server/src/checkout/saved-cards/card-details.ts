/**
 * The card behind a card reference as the gateway describes it (get-card-info), remembered by this
 * instance for a few minutes. The expiry and the holder's name are never stored (docs/security.md),
 * so they are asked for whenever they are shown; a session read shows up to ten saved cards, and
 * one gateway read each per five minutes serves every shopper's reads of it. Concurrent askers of
 * one reference share one request; a failed request is not remembered.
 */
import { createHmac } from 'node:crypto';
import { type Context, inScope, instanceMap } from '../context.js';

export interface CardDetails {
  bin: string | null;
  last4: string | null;
  /** As the gateway sent it (`card-type`). */
  brand: string | null;
  /** "01".."12", or null when the gateway gave no month it could mean. */
  expMonth: string | null;
  /** Four digits, or null likewise. */
  expYear: string | null;
  holder: string | null;
}

/** How long an answer is reused. */
export const CARD_DETAILS_TTL_MS = 5 * 60_000;
/** How many references one instance remembers; the oldest go first. */
const CARD_DETAILS_MAX = 1_000;

interface Remembered {
  at: number;
  details: Promise<CardDetails>;
}

const memoryOf = instanceMap<Remembered>();

/** "1" or "01" to "01"; anything that is no month to null. */
export function expiryMonth(value: string | undefined): string | null {
  if (!value || !/^\d{1,2}$/.test(value)) return null;
  const month = Number(value);
  return month >= 1 && month <= 12 ? String(month).padStart(2, '0') : null;
}

/** "2030" as it is, "30" as "2030"; anything else to null. */
export function expiryYear(value: string | undefined): string | null {
  if (!value) return null;
  if (/^\d{4}$/.test(value)) return value;
  return /^\d{2}$/.test(value) ? `20${value}` : null;
}

/** A card expires at the end of its expiry month; an unknown expiry is not held against it. */
export function isExpired(
  details: Pick<CardDetails, 'expMonth' | 'expYear'>,
  now = new Date(),
): boolean {
  if (!details.expMonth || !details.expYear) return false;
  const expiry = Number(details.expYear) * 12 + Number(details.expMonth);
  return expiry < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
}

async function ask(ctx: Context, cardRefId: string): Promise<CardDetails> {
  const info = await inScope(ctx, {}, () => ctx.gateway.getCardInfo({ cardrefid: cardRefId }));
  const card = info.card ?? {};
  return {
    bin: card.bin ?? null,
    last4: card.lastFour ?? null,
    brand: card.type ?? null,
    expMonth: expiryMonth(card.expMonth),
    expYear: expiryYear(card.expYear),
    holder: card.holder ?? null,
  };
}

/** The reference's card details; throws the gateway's error when it cannot tell. */
export function cardDetails(ctx: Context, cardRefId: string): Promise<CardDetails> {
  const memory = memoryOf(ctx);
  const now = Date.now();
  const known = memory.get(cardRefId);
  if (known && now - known.at < CARD_DETAILS_TTL_MS) return known.details;
  const details = ask(ctx, cardRefId);
  memory.delete(cardRefId);
  memory.set(cardRefId, { at: now, details });
  details.catch(() => {
    if (memory.get(cardRefId)?.details === details) memory.delete(cardRefId);
  });
  for (const oldest of memory.keys()) {
    if (memory.size <= CARD_DETAILS_MAX) break;
    memory.delete(oldest);
  }
  return details;
}

/**
 * A card reference as a log line names it, when the line needs to name one: `ref-` and the first
 * 12 hex digits of HMAC-SHA256(JWT_SECRET, "card-ref-log:" + id). The same on every instance that
 * shares the secret, so one reference's lines can be found (compute its tag); not reversible
 * without the secret, even for a gateway whose ids are small numbers. Logs travel further than the
 * store (collectors, tickets), and a reference id is what charges a card (docs/security.md).
 */
export function cardRefTag(ctx: Context, cardRefId: string): string {
  const mac = createHmac('sha256', ctx.config.jwtSecret).update(`card-ref-log:${cardRefId}`);
  return `ref-${mac.digest('hex').slice(0, 12)}`;
}

/**
 * `error` as a log line may carry it: a gateway's message may name the reference (the sandbox's
 * refusal does, "cardrefid: <id> is not ..."), which becomes its tag. Anything else as it is.
 */
export function withoutCardRef(ctx: Context, error: unknown, cardRefId: string): unknown {
  if (!(error instanceof Error) || cardRefId === '') return error;
  const tag = cardRefTag(ctx, cardRefId);
  const copy = new Error(error.message.replaceAll(cardRefId, tag));
  copy.name = error.name;
  copy.stack = error.stack?.replaceAll(cardRefId, tag);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? Object.assign(copy, { code }) : copy;
}

/** The details, or null when the gateway cannot tell now (logged, naming the reference's tag). */
export async function cardDetailsOrNull(
  ctx: Context,
  cardRefId: string,
): Promise<CardDetails | null> {
  try {
    return await cardDetails(ctx, cardRefId);
  } catch (error) {
    ctx.logger.warn(
      { err: withoutCardRef(ctx, error, cardRefId), cardRef: cardRefTag(ctx, cardRefId) },
      'get-card-info failed; the card is shown without',
    );
    return null;
  }
}

/** Drops what this instance remembers of a reference (it was forgotten). */
export function forgetCardDetails(ctx: Context, cardRefId: string): void {
  memoryOf(ctx).delete(cardRefId);
}
