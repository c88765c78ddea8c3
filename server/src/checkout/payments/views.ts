/**
 * The shapes the widget and the merchant see, built from store rows. Card data here is brand,
 * last four and the masked number only: the store never had more.
 */
import type {
  NextAction,
  OrderStatus,
  OrderView,
  SavedCardView,
  SessionView,
} from '../../../../contract/api-types.js';
import { PayCheckoutError } from '../../errors.js';
import { fromMinorUnits } from '../../signing/index.js';
import {
  type CheckoutSession,
  type Order,
  type OrderState,
  UNPAID_ORDER_STATUSES,
} from '../../store/index.js';
import { collectGroups, prefillOf } from '../customer/groups.js';
import { declineReason } from '../following/decline-reason.js';
import type { StoredAction } from '../following/next-action.js';
import type { CardRefSummary } from '../saved-cards/views.js';

/**
 * The status as the widget knows it. `new` is ours (the sale is being sent): processing. The
 * widget is shown an order only once the shopper paid, never an unpaid one.
 */
function widgetStatus(order: Order): OrderStatus {
  const status: OrderState = order.status;
  if (status === 'new') return 'processing';
  if (status === 'awaiting-payment' || status === 'expired') {
    throw new PayCheckoutError('unpaid-order', `Order ${order.id} is unpaid: not the widget's`);
  }
  return status;
}

/**
 * The gateway's words on the attempt as the browser may have them. An attempt charged with a saved
 * card sends none of its text (`reason`): a gateway refusing one may name the card reference (the
 * sandbox says "cardrefid: <id> is not a card reference of this endpoint"), and the browser only
 * ever sees a session's opaque handles (docs/security.md). Its `errorCode` is sent unless it holds
 * the reference. The merchant API, the webhooks and the gateway history keep both as the gateway
 * sent them. `declineReason`: what the element may tell the shopper of the code (decline-reason.ts).
 */
function gatewayWordsForBrowser(
  order: Order,
): Pick<OrderView, 'reason' | 'errorCode' | 'declineReason'> {
  const ref = order.savedCardRef?.toLowerCase();
  const reason = ref ? null : order.reason;
  const errorCode = ref && order.errorCode?.toLowerCase().includes(ref) ? null : order.errorCode;
  const why = declineReason(errorCode);
  return {
    ...(reason ? { reason } : {}),
    ...(errorCode ? { errorCode } : {}),
    ...(why ? { declineReason: why } : {}),
  };
}

/**
 * The order as the widget sees it: `attemptsLeft` after this attempt (attempts.ts). Every widget
 * answer that shows an order (the session read, each next action) is built here.
 */
export function orderView(order: Order, attemptsLeft = 0): OrderView {
  return {
    orderId: order.merchantOrderId,
    attemptId: order.clientOrderId,
    attempt: order.attempt,
    attemptsLeft,
    ...(order.gatewayOrderId ? { gatewayOrderId: order.gatewayOrderId } : {}),
    status: widgetStatus(order),
    amount: fromMinorUnits(order.amountMinor, order.currency),
    amountMinor: order.amountMinor,
    currency: order.currency,
    intent: order.intent,
    ...(order.cardBrand && order.cardLast4
      ? { card: { brand: order.cardBrand, last4: order.cardLast4, masked: order.cardMasked ?? '' } }
      : {}),
    ...gatewayWordsForBrowser(order),
    ...(order.abandonedAt ? { abandoned: true } : {}),
  };
}

/**
 * `savedCards`: the cards the session offers as the widget shows them (saved-cards/views.ts).
 * `collect`: the groups the element asks for (customer/groups.ts), `prefill` what the merchant
 * sent of them, `countryHint` the merchant's default country.
 */
export function sessionView(
  session: CheckoutSession,
  order: Order | null,
  attemptsLeft = 0,
  testMode = false,
  savedCards: SavedCardView[] = [],
): SessionView {
  return {
    id: session.id,
    orderId: session.clientOrderId,
    amount: fromMinorUnits(session.amountMinor, session.currency),
    amountMinor: session.amountMinor,
    currency: session.currency,
    description: session.description,
    intent: session.intent,
    modes: session.modes,
    state: session.state,
    expiresAt: session.expiresAt.toISOString(),
    ...(order ? { order: orderView(order, attemptsLeft) } : {}),
    ...(testMode ? { testMode: true } : {}),
    saveCard: session.saveCard,
    savedCards,
    savedCardCvc: session.savedCardCvc,
    ...shopperParts(session),
  };
}

/** What the element asks of the shopper, and what its fields start with. */
function shopperParts(
  session: CheckoutSession,
): Pick<SessionView, 'collect' | 'prefill' | 'countryHint'> {
  const collect = collectGroups(session.collect, session.customer);
  const prefill = prefillOf(collect, session.customer);
  return {
    collect,
    ...(Object.keys(prefill).length > 0 ? { prefill } : {}),
    ...(session.countryHint ? { countryHint: session.countryHint } : {}),
  };
}

/**
 * The action as the widget gets it. `launchUrl`: the launcher page of a step that posts a form or
 * shows the gateway's page (checkout/launcher), which the widget loads instead of posting itself.
 */
export function withOrder(
  action: StoredAction,
  order: Order,
  launchUrl?: string,
  attemptsLeft = 0,
): NextAction {
  const launch = launchUrl ? { launchUrl } : {};
  const view = orderView(order, attemptsLeft);
  // The gateway's html stays on the server: the widget loads our launcher, which frames our page
  // that serves it.
  if (action.action === 'html')
    return { action: 'html', url: action.url, launchUrl: launchUrl ?? '', order: view };
  return { ...action, ...launch, order: view } as NextAction;
}

/** One payment attempt as the merchant sees it: an order's `attempts`, the `payment.*` webhooks. */
export function attemptView(order: Order) {
  return {
    id: order.clientOrderId,
    attempt: order.attempt,
    status: order.status,
    gatewayOrderId: order.gatewayOrderId,
    reason: order.reason,
    errorCode: order.errorCode,
    card:
      order.cardBrand && order.cardLast4
        ? { brand: order.cardBrand, last4: order.cardLast4 }
        : null,
    abandoned: order.abandonedAt !== null,
    paidWithCardRef: order.savedCardRef,
    reversal: order.reversalReason
      ? { reason: order.reversalReason, reversedAt: order.reversedAt?.toISOString() ?? null }
      : null,
    createdAt: order.createdAt.toISOString(),
    updatedAt: order.updatedAt.toISOString(),
  };
}

/**
 * The merchant API's order (and the webhooks' `data.order`): `order` is the attempt whose status
 * and amounts it shows (the kept one, else the latest: attempts.ts, merchantOrderOf), `attempts`
 * every attempt made so far (none while it is unpaid), `cardRef` the card reference made from
 * it (saved-cards/views.ts: with the card's expiry and holder on a read of this one order only).
 */
export function merchantOrderView<R extends CardRefSummary = CardRefSummary>(
  order: Order,
  attempts: readonly Order[] = [order],
  livemode = true,
  cardRef: R | null = null,
) {
  const money = (minor: number) => fromMinorUnits(minor, order.currency);
  return {
    orderId: order.merchantOrderId,
    livemode,
    gatewayOrderId: order.gatewayOrderId,
    sessionId: order.sessionId,
    intent: order.intent,
    status: order.status,
    amount: money(order.amountMinor),
    currency: order.currency,
    capturedAmount: money(order.capturedMinor),
    returnedAmount: money(order.returnedMinor),
    voided: order.voidedAt !== null,
    card:
      order.cardBrand && order.cardLast4
        ? { brand: order.cardBrand, last4: order.cardLast4, masked: order.cardMasked ?? '' }
        : null,
    reason: order.reason,
    errorCode: order.errorCode,
    cardRef,
    // What the shown attempt carried to the gateway (the merchant's customer merged with what the
    // shopper typed); null until it is paid, and for attempts made before it was kept.
    customer: order.customer,
    attempts: attempts.filter((a) => !UNPAID_ORDER_STATUSES.includes(a.status)).map(attemptView),
    createdAt: order.createdAt.toISOString(),
    updatedAt: order.updatedAt.toISOString(),
  };
}

/**
 * The merchant API's checkout session: never its token. `order` and `attempts` as
 * merchantOrderView takes them (attempts.ts, merchantOrderOf); `savedCards` the card references
 * it offers (the merchant's own ids), `cardRef` the one made from its order.
 */
export function merchantSessionView<R extends CardRefSummary = CardRefSummary>(
  session: CheckoutSession,
  order: Order | null,
  attempts?: readonly Order[],
  livemode = true,
  saved: { savedCards?: string[]; cardRef?: R | null } = {},
) {
  return {
    id: session.id,
    orderId: session.clientOrderId,
    state: session.state,
    amount: fromMinorUnits(session.amountMinor, session.currency),
    currency: session.currency,
    intent: session.intent,
    description: session.description,
    modes: session.modes,
    returnUrl: session.returnUrl,
    metadata: session.metadata,
    expiresAt: session.expiresAt.toISOString(),
    createdAt: session.createdAt.toISOString(),
    updatedAt: session.updatedAt.toISOString(),
    maxAttempts: session.maxAttempts,
    saveCard: session.saveCard,
    savedCards: saved.savedCards ?? [],
    savedCardCvc: session.savedCardCvc,
    collect: session.collect,
    countryHint: session.countryHint,
    livemode,
    order: order ? merchantOrderView(order, attempts, livemode, saved.cardRef ?? null) : null,
  };
}
