/**
 * How a payment ended, as the element shows it and tells the page: the result panel, the form
 * back (with why) or a field's error, and the one event that says so. Pure: what it returns the
 * element carries out (pay-checkout-element.ts `_show`), so the rules are read in one place.
 */
import type { OrderView } from '../../contract/api-types.js';
import { isFinal } from '../../contract/order-status.js';
import { ApiError } from './api.js';
import { fieldOfServer } from './card/card-form.js';
import type { CardField } from './card/validate.js';
import type { PayEventDetail } from './events.js';
import type { StringKey } from './i18n/index.js';
import { fieldOfShopperPath, type ShopperField } from './shopper/validate.js';
import type { FlowEnd } from './three-ds/flow.js';

/** The result panel's kinds: its title is the string of that key. */
export type ResultKind = 'approved' | 'declined' | 'cancelled' | 'error';

/** What the element shows. */
export type Shown =
  /** The form again for another attempt, and why (`why`'s words, above it and spoken once). */
  | { to: 'form'; why: StringKey }
  /** The form again, the backend's `message` on the `field` it refused. */
  | { to: 'field'; field: CardField | ShopperField; message: string }
  /**
   * The result panel: `kind`, its detail (`<kind>Detail` unless said) and `note` after it, a Try
   * again button.
   */
  | {
      to: 'result';
      kind: ResultKind;
      detail?: StringKey | undefined;
      note?: StringKey | undefined;
      card?: string | undefined;
      retry?: boolean;
    };

export interface Outcome {
  shown: Shown;
  event:
    | { name: 'pay-success'; detail: PayEventDetail<'pay-success'> }
    | { name: 'pay-declined'; detail: PayEventDetail<'pay-declined'> }
    | { name: 'pay-error'; detail: PayEventDetail<'pay-error'> };
  /** The order the gateway's answer ended: the card is wiped first, the `final` step comes last. */
  final?: OrderView;
}

type Words = (key: StringKey) => string;

/**
 * How the payment flow ended. A final status of the gateway wins over a cancel. An attempt that
 * failed or was left gives the form back while the session takes another.
 */
export function outcomeOf(end: Exclude<FlowEnd, { kind: 'left' }>, t: Words): Outcome {
  const { order } = end;
  if (end.kind === 'final' || isFinal(order.status)) return finalOf(order, t);
  return unansweredOf(end.kind, order, t);
}

/** The backend's last word on the order (the card it names is the one sent, or the gateway's). */
function finalOf(order: OrderView, t: Words): Outcome {
  const { orderId, status, attemptsLeft, card } = order;
  if (status === 'approved') {
    const { gatewayOrderId, amount, amountMinor, currency } = order;
    return {
      // A card typed on the gateway's page is known only when the gateway named it.
      shown: {
        to: 'result',
        kind: 'approved',
        detail: card ? undefined : 'approvedPlain',
        card: card?.masked,
      },
      event: {
        name: 'pay-success',
        detail: {
          orderId,
          ...(gatewayOrderId ? { gatewayOrderId } : {}),
          amount,
          amountMinor,
          currency,
          ...(card ? { card } : {}),
        },
      },
      final: order,
    };
  }
  if (status === 'declined' || status === 'error' || status === 'filtered') {
    const { reason, errorCode, declineReason } = order;
    // The backend names what the shopper can be told of the gateway's code.
    const why: StringKey = declineReason ? `decline.${declineReason}` : 'declinedDetail';
    return {
      // The last attempt: the shopper is told that this checkout takes no other card.
      shown: attemptsLeft
        ? { to: 'form', why }
        : { to: 'result', kind: 'declined', detail: why, note: 'attemptsExhausted' },
      event: {
        name: 'pay-declined',
        detail: {
          orderId,
          status,
          ...(reason ? { reason } : {}),
          ...(errorCode ? { errorCode } : {}),
          attemptsLeft,
        },
      },
      final: order,
    };
  }
  // A `final` for a non-final status: the session took the attempt back (cancelled or left).
  return { ...unansweredOf(order.abandoned ? 'abandoned' : 'cancelled', order, t), final: order };
}

/** Timed out, or cancelled or left: the form again with why, or the result at the last attempt. */
function unansweredOf(
  kind: 'cancelled' | 'timeout' | 'abandoned',
  { attemptsLeft }: OrderView,
  t: Words,
): Outcome {
  const timeout = kind === 'timeout';
  const why: StringKey = timeout ? 'error.three-ds-timeout' : `${kind}Detail`;
  return {
    shown: attemptsLeft
      ? { to: 'form', why }
      : timeout
        ? { to: 'result', kind: 'error', detail: why }
        : { to: 'result', kind: 'cancelled' },
    event: {
      name: 'pay-error',
      detail: {
        code: timeout ? 'three-ds-timeout' : 'challenge-cancelled',
        message: t(why),
        attemptsLeft,
      },
    },
  };
}

/** A payment (or the session's load) that failed: the refused field, or the error panel. */
export function failureOf(e: unknown): Outcome {
  const err =
    e instanceof ApiError
      ? e
      : new ApiError('internal', e instanceof Error ? e.message : String(e));
  const { code, message } = err;
  // The backend refused one of our fields: back to the form, the error on that field.
  const field =
    code === 'validation' && err.field
      ? (fieldOfServer(err.field) ?? fieldOfShopperPath(err.field))
      : undefined;
  if (field) {
    return {
      shown: { to: 'field', field, message },
      event: { name: 'pay-error', detail: { code, message, field } },
    };
  }
  // These three have words of their own (`error.<code>`); a network failure offers a retry.
  const own = code === 'network' || code === 'session-expired' || code === 'conflict';
  return {
    shown: {
      to: 'result',
      kind: 'error',
      detail: own
        ? `error.${code}`
        : code === 'attempts-exhausted'
          ? 'attemptsExhausted'
          : undefined,
      retry: code === 'network',
    },
    event: { name: 'pay-error', detail: { code, message } },
  };
}
