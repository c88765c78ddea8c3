/**
 * The element's events: one typed detail per name. All bubble and are composed, so a listener on
 * `document` hears them through the shadow root. Card data never appears here: brand, last four
 * digits and the masked number only.
 */
import type { OrderStatus, ReturnMessage } from '../../contract/api-types.js';
import type { BrandId } from '../../contract/card/brands.js';
import type { CardField } from './card/validate.js';
import type { ShopperField } from './shopper/validate.js';

/** Codes of `pay-error`. */
export type PayErrorCode =
  | 'network'
  | 'session-expired'
  | 'validation'
  | 'three-ds-timeout'
  | 'challenge-cancelled'
  | 'conflict'
  /** The session took its last payment attempt (`maxAttempts`): no further one is sent. */
  | 'attempts-exhausted'
  | 'rate-limited'
  | 'gateway'
  | 'internal'
  /** The page's origin is not one the merchant allowed on the backend (`ALLOWED_ORIGINS`). */
  | 'forbidden'
  | 'not-found'
  | 'payload-too-large'
  /** The backend cannot serve now; the same request may succeed later. */
  | 'unavailable'
  /** The saved card chosen is not one this session offers (or no longer). */
  | 'saved-card-unknown'
  /** The saved card chosen has expired. */
  | 'saved-card-expired'
  /** A cancel while the attempt's sale was on its way, before any bank page: it is followed. */
  | 'payment-in-flight'
  /** The backend named a URL that is not https (nor http to loopback): not followed. */
  | 'unsafe-url';

/** Steps reported by `pay-status`. */
export type PayStep =
  | 'loading'
  | 'ready'
  | 'paying'
  | 'method'
  | 'challenge'
  | 'waiting'
  | 'redirect'
  | 'final';

export interface PayReadyDetail {
  orderId: string;
  amount: string;
  currency: string;
  mode: 'direct' | 'hosted';
}
export interface PayChangeDetail {
  /** Every field is valid: submit would send the payment. */
  complete: boolean;
  brand: BrandId | null;
  /** Validity per field (a field is invalid while empty). */
  fields: Record<CardField, boolean>;
}
export interface PaySubmitDetail {
  mode: 'direct' | 'hosted';
  brand: BrandId | null;
  last4?: string;
}
export type Pay3dsMethodDetail =
  | { phase: 'start' }
  | { phase: 'complete'; compInd: 'Y' | 'N' | 'U' };
export type PayChallengeDetail =
  | { phase: 'open'; version: '2' | '1.0.2' | 'html' | 'redirect'; windowSize: string }
  | { phase: 'close'; reason: 'complete' | 'cancelled' | 'timeout' | 'redirect' };
export interface PayRedirectDetail {
  url: string;
  reason: 'hosted' | 'gateway' | 'challenge';
}
export interface PayStatusDetail {
  step: PayStep;
  orderId?: string;
  status?: OrderStatus;
  /** The return page message that moved us on, when there was one. */
  message?: ReturnMessage['type'];
}
export interface PaySuccessDetail {
  orderId: string;
  gatewayOrderId?: string;
  amount: string;
  amountMinor: number;
  currency: string;
  card?: { brand: string; last4: string; masked: string };
}
export interface PayDeclinedDetail {
  orderId: string;
  status: Exclude<OrderStatus, 'approved' | 'processing' | 'unknown'>;
  reason?: string;
  errorCode?: string;
  /** How many more attempts the session takes: the form is back when more than 0. */
  attemptsLeft: number;
}
export interface PayErrorDetail {
  code: PayErrorCode;
  message: string;
  /** The card or shopper field that is not right (`number`, ..., `email`, `zipCode`, ...). */
  field?: CardField | ShopperField;
  /** After a payment attempt ended without an answer (cancelled, left, timed out): how many more
   * the session takes; the form is back when more than 0. */
  attemptsLeft?: number;
}

export interface PayCheckoutEventMap {
  'pay-ready': CustomEvent<PayReadyDetail>;
  'pay-change': CustomEvent<PayChangeDetail>;
  'pay-submit': CustomEvent<PaySubmitDetail>;
  'pay-3ds-method': CustomEvent<Pay3dsMethodDetail>;
  'pay-challenge': CustomEvent<PayChallengeDetail>;
  'pay-redirect': CustomEvent<PayRedirectDetail>;
  'pay-status': CustomEvent<PayStatusDetail>;
  'pay-success': CustomEvent<PaySuccessDetail>;
  'pay-declined': CustomEvent<PayDeclinedDetail>;
  'pay-error': CustomEvent<PayErrorDetail>;
}

export type PayEventName = keyof PayCheckoutEventMap;
export type PayEventDetail<K extends PayEventName> = PayCheckoutEventMap[K]['detail'];

/**
 * Every event the element fires, in the map's order: the one list a page or a test listens with.
 * (Not exported by the package entry, so it stays out of the CDN file.)
 */
export const PAY_EVENTS = [
  'pay-ready',
  'pay-change',
  'pay-submit',
  'pay-3ds-method',
  'pay-challenge',
  'pay-redirect',
  'pay-status',
  'pay-success',
  'pay-declined',
  'pay-error',
] as const satisfies readonly PayEventName[];

/** Fails to compile while the map has an event that PAY_EVENTS leaves out. */
export type EveryEventListed<T extends never = Exclude<PayEventName, (typeof PAY_EVENTS)[number]>> =
  T;

declare global {
  // Typed `addEventListener('pay-success', e => e.detail.orderId)` anywhere in the page.
  interface HTMLElementEventMap extends PayCheckoutEventMap {}
}
