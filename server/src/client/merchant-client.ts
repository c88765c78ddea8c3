/**
 * `pay-checkout/client`: a small typed client of the merchant API for the merchant's server. The
 * types are the zod schemas the backend validates and publishes in its OpenAPI document
 * (merchant-api/schemas.ts), imported as types only: the client itself is plain `fetch`.
 *
 *   const api = createMerchantClient({ baseUrl: 'https://shop.example/pay', apiKey });
 *   const { token } = await api.createSession({ amount: '10.00', currency: 'EUR', ... });
 */
import type { z } from 'zod';
import type {
  CreatePaymentLinkBody,
  PaymentLinkAnswer,
  PaymentLinkList as PaymentLinkListSchema,
} from '../checkout/http/merchant-api/payment-link-schemas.js';
import type {
  Attempt as AttemptSchema,
  CardInfo as CardInfoSchema,
  CheckoutSessionView,
  CreateSessionBody,
  ErrorResponse,
  EventList as EventListSchema,
  Event as EventSchema,
  ListEventsQuery,
  Operation as OperationSchema,
  OrderCardRef,
  OrderList as OrderListSchema,
  Order as OrderSchema,
  OrderStatusEnum,
  ResolveOperationBody,
  SessionCreated,
} from '../checkout/http/merchant-api/schemas.js';
import { PayCheckoutError } from '../errors.js';

/** What `createSession` sends (defaults as the API applies them: intent sale, 30 minutes...). */
export type CreateSessionInput = z.input<typeof CreateSessionBody>;
/** The new session: its `token` goes to `<pay-checkout session="...">`. */
export type CheckoutSession = z.output<typeof SessionCreated>;
/** A session as `getSession` reads it: state, expiry, amount and its order; never the token. */
export type CheckoutSessionInfo = z.output<typeof CheckoutSessionView>;
export type Order = z.output<typeof OrderSchema>;
/** One payment attempt of an order (`order.attempts`). */
export type PaymentAttempt = z.output<typeof AttemptSchema>;
export type OrderStatus = z.output<typeof OrderStatusEnum>;
export type OrderList = z.output<typeof OrderListSchema>;
export type Operation = z.output<typeof OperationSchema>;
export type WebhookEventInfo = z.output<typeof EventSchema>;
export type EventList = z.output<typeof EventListSchema>;
export type ListEventsParams = z.input<typeof ListEventsQuery>;
/** A card reference made from an order (`order.cardRef`, a forget's answer). */
export type CardRef = z.output<typeof OrderCardRef>;
/** The card behind a card reference, as the gateway describes it (`getCardRef`). */
export type CardInfo = z.output<typeof CardInfoSchema>;
/** What the gateway's back office showed for an `unknown` operation, and who checked it. */
export type ResolveOperationInput = z.input<typeof ResolveOperationBody>;
/** What `createPaymentLink` sends (defaults as the API applies them: 7 days, one payment...). */
export type CreatePaymentLinkInput = z.input<typeof CreatePaymentLinkBody>;
/** A payment link: its `url` for the shopper, its `state` and payments, its `qrCode` (SVG). */
export type PaymentLink = z.output<typeof PaymentLinkAnswer>;
export type PaymentLinkList = z.output<typeof PaymentLinkListSchema>;
/** A capture, void or refund: the order after it, and the operation (its `status` may be pending). */
export interface MoneyOperationResult {
  order: Order;
  operation: Operation;
}

export interface ListOrdersParams {
  status?: OrderStatus | OrderStatus[];
  /** ISO 8601 date-times. */
  createdFrom?: string;
  createdTo?: string;
  /** 1-500 (default 50). */
  limit?: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
}

export interface WriteOptions {
  /** Repeats with the same key get the first answer and move no money twice. */
  idempotencyKey?: string;
}

export interface AmountOptions extends WriteOptions {
  /** Part of the amount, in the order's currency (`"4.20"`); omit for the full remaining amount. */
  amount?: string;
}

export interface MerchantClientOptions {
  /** The backend's `publicUrl`, mount path included (`https://shop.example/pay`). */
  baseUrl: string;
  /** MERCHANT_API_KEY (`merchantApiKey`). Server side only: never send it to a browser. */
  apiKey: string;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
}

type ErrorBody = z.output<typeof ErrorResponse>['error'];

/**
 * An answer other than 2xx: the API's error (`code`, `message`, `field` for a 400, the
 * `requestId` to quote), under the one error base of the package.
 */
export class MerchantApiError extends PayCheckoutError {
  readonly status: number;
  readonly field: string | undefined;
  readonly requestId: string | undefined;

  constructor(status: number, error: ErrorBody) {
    super(error.code, `${status} ${error.code}: ${error.message}`);
    this.status = status;
    this.field = error.field;
    this.requestId = error.requestId;
  }
}

export interface MerchantClient {
  createSession(input: CreateSessionInput, options?: WriteOptions): Promise<CheckoutSession>;
  getSession(sessionId: string): Promise<CheckoutSessionInfo>;
  /** Ends an open session now; its order becomes `expired`. A 409 once a payment started. */
  expireSession(sessionId: string): Promise<CheckoutSessionInfo>;
  getOrder(orderId: string): Promise<Order>;
  listOrders(params?: ListOrdersParams): Promise<OrderList>;
  /** Asks the gateway for a pending order's status now. */
  refreshOrder(orderId: string): Promise<Order>;
  capture(orderId: string, options?: AmountOptions): Promise<MoneyOperationResult>;
  void(orderId: string, options?: WriteOptions): Promise<MoneyOperationResult>;
  /** `POST /v1/orders/{orderId}/return`: refunds a sale or captured preauth, in full or in part. */
  refund(orderId: string, options?: AmountOptions): Promise<MoneyOperationResult>;
  /** Any operation by its `id`: a capture, void or refund as well as a rebill or payout. */
  getOperation(operationId: string): Promise<Operation>;
  /**
   * Records the final status of an `unknown` operation (its answer was lost and the gateway's
   * status cannot tell), as a person read it in the gateway's back office. A 409 unless `unknown`.
   */
  resolveOperation(
    operationId: string,
    input: ResolveOperationInput,
    options?: WriteOptions,
  ): Promise<Operation>;
  /** The webhook events, newest first (`delivered: 'false'`: what your endpoint never got). */
  listEvents(params?: ListEventsParams): Promise<EventList>;
  /** Sends one event to your webhook endpoint again. */
  redeliverEvent(eventId: string): Promise<WebhookEventInfo>;
  /** The card behind a card reference: brand, last four, expiry, holder (read from the gateway). */
  getCardRef(cardRefId: string): Promise<CardInfo>;
  /**
   * Forgets a card reference this backend made: no checkout session offers it again. A 409 while
   * a session that may still be paid offers it.
   */
  forgetCardRef(cardRefId: string): Promise<CardRef>;
  /** A payment link (docs/payment-links.md): a page of the backend's that takes the payment. */
  createPaymentLink(input: CreatePaymentLinkInput, options?: WriteOptions): Promise<PaymentLink>;
  getPaymentLink(linkId: string): Promise<PaymentLink>;
  /** Newest first; `nextCursor` pages on. */
  listPaymentLinks(params?: { limit?: number; cursor?: string }): Promise<PaymentLinkList>;
  /** Takes no payment from now on; an approval arriving after it is reversed. */
  deactivatePaymentLink(linkId: string, options?: WriteOptions): Promise<PaymentLink>;
}

export function createMerchantClient(options: MerchantClientOptions): MerchantClient {
  const base = `${options.baseUrl.replace(/\/+$/, '')}/v1`;
  const fetchImpl = options.fetch ?? fetch;

  async function call<T>(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    write: WriteOptions = {},
  ): Promise<T> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${options.apiKey}`,
      accept: 'application/json',
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (write.idempotencyKey !== undefined) headers['idempotency-key'] = write.idempotencyKey;
    const res = await fetchImpl(`${base}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!res.ok) {
      const error = (parsed as { error?: ErrorBody } | undefined)?.error;
      throw new MerchantApiError(
        res.status,
        error ?? { code: 'http-error', message: text.slice(0, 200) || res.statusText },
      );
    }
    return parsed as T;
  }

  const order = (orderId: string) => `/orders/${encodeURIComponent(orderId)}`;
  const session = (sessionId: string) => `/checkout-sessions/${encodeURIComponent(sessionId)}`;
  const link = (linkId: string) => `/payment-links/${encodeURIComponent(linkId)}`;
  const operation = (operationId: string) => `/operations/${encodeURIComponent(operationId)}`;
  const money = (orderId: string, kind: string, { amount, ...write }: AmountOptions = {}) =>
    call<MoneyOperationResult>(
      'POST',
      `${order(orderId)}/${kind}`,
      amount === undefined ? {} : { amount },
      write,
    );

  return {
    createSession: (input, write) => call('POST', '/checkout-sessions', input, write),
    getSession: (sessionId) => call('GET', session(sessionId)),
    expireSession: (sessionId) => call('POST', `${session(sessionId)}/expire`, {}),
    getOrder: (orderId) => call('GET', order(orderId)),
    listOrders(params = {}) {
      const query = new URLSearchParams();
      const status = params.status;
      if (status !== undefined)
        query.set('status', Array.isArray(status) ? status.join(',') : status);
      if (params.createdFrom !== undefined) query.set('createdFrom', params.createdFrom);
      if (params.createdTo !== undefined) query.set('createdTo', params.createdTo);
      if (params.limit !== undefined) query.set('limit', String(params.limit));
      if (params.cursor !== undefined) query.set('cursor', params.cursor);
      const search = query.toString();
      return call('GET', search ? `/orders?${search}` : '/orders');
    },
    refreshOrder: (orderId) => call('POST', `${order(orderId)}/refresh`, {}),
    capture: (orderId, options) => money(orderId, 'capture', options),
    void: (orderId, write) => money(orderId, 'void', write),
    refund: (orderId, options) => money(orderId, 'return', options),
    getOperation: (operationId) => call('GET', operation(operationId)),
    resolveOperation: (operationId, input, write) =>
      call('POST', `${operation(operationId)}/resolve`, input, write),
    listEvents: (params = {}) => call('GET', withQuery('/events', params)),
    redeliverEvent: (eventId) =>
      call('POST', `/events/${encodeURIComponent(eventId)}/redeliver`, {}),
    getCardRef: (cardRefId) => call('GET', `/card-refs/${encodeURIComponent(cardRefId)}`),
    forgetCardRef: (cardRefId) =>
      call('POST', `/card-refs/${encodeURIComponent(cardRefId)}/forget`, {}),
    createPaymentLink: (input, write) => call('POST', '/payment-links', input, write),
    getPaymentLink: (linkId) => call('GET', link(linkId)),
    listPaymentLinks: (params = {}) => call('GET', withQuery('/payment-links', params)),
    deactivatePaymentLink: (linkId, write) => call('POST', `${link(linkId)}/deactivate`, {}, write),
  };
}

/** `path` with the params that are set as its query string. */
function withQuery(path: string, params: Record<string, unknown>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    if (value !== undefined) query.set(name, String(value));
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}
