/**
 * The backend client: the seven widget routes of contract/api-types.ts, nothing else. It holds the session
 * token only (never a gateway secret) and turns every failure into an ApiError with a code.
 */
import type {
  CancelRequest,
  ExtendAnswer,
  ExtendRequest,
  HostedPayRequest,
  MethodResultRequest,
  NextAction,
  PayRequest,
  SessionView,
  WidgetApiError,
  WidgetApiErrorCode,
} from '../../contract/api-types.js';
import { type Clock, sleep } from './env.js';

/** The backend's codes, `unauthorized` (a session token no longer taken) told as `session-expired`. */
export type ApiErrorCode = Exclude<WidgetApiErrorCode, 'unauthorized'> | 'network';

export class ApiError extends Error {
  override name = 'ApiError';
  readonly code: ApiErrorCode;
  /** HTTP status; 0 when no answer arrived. */
  readonly status: number;
  readonly field: string | undefined;
  readonly requestId: string | undefined;
  constructor(code: ApiErrorCode, message: string, status = 0, field?: string, requestId?: string) {
    super(message);
    this.code = code;
    this.status = status;
    this.field = field;
    this.requestId = requestId;
  }
}

/** Delays before each retry of an idempotent call that failed on the network or with a 5xx. */
export const RETRY_DELAYS_MS = [500, 1500, 3500] as const;

/** Seconds the backend may hold GET /widget/next open (the contract allows up to 25). */
export const LONG_POLL_S = 20;

export interface ApiOptions {
  backend: string;
  session: string;
  fetch: typeof fetch;
  clock: Clock;
  signal: AbortSignal;
}

export interface Api {
  /** The backend's origin: the only one whose return pages' messages count. */
  readonly origin: string;
  session(): Promise<SessionView>;
  pay(body: PayRequest): Promise<NextAction>;
  methodResult(body: MethodResultRequest): Promise<NextAction>;
  /** `signal` ends this call early (a poll alongside a challenge); the client's own still applies. */
  next(waitSeconds?: number, signal?: AbortSignal): Promise<NextAction>;
  cancel(body: CancelRequest): Promise<NextAction>;
  /** `body`: the shopper's details the session asks; none when it asks nothing. */
  hosted(body?: HostedPayRequest): Promise<NextAction>;
  /** More time for the session (time-limits.ts); safe to repeat: the backend extends once per expiry. */
  extend(body: ExtendRequest): Promise<ExtendAnswer>;
}

const retryable = (e: unknown) =>
  e instanceof ApiError && (e.code === 'network' || e.status >= 500);

export function createApi(o: ApiOptions): Api {
  /** Every route is under `/widget/`. */
  const base = `${o.backend.replace(/\/+$/, '')}/widget/`;

  async function once<T>(
    method: 'GET' | 'POST',
    route: string,
    body?: unknown,
    signal = o.signal,
  ): Promise<T> {
    let res: Response;
    try {
      res = await o.fetch(base + route, {
        method,
        // No Accept header of ours: fetch sends `*/*`. The backend takes the browser's real page
        // Accept header for 3-D Secure from the launcher page's load, never from these calls.
        headers: {
          Authorization: `Bearer ${o.session}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        // No body at all for `undefined` (JSON.stringify's answer to it).
        body: JSON.stringify(body),
        // The token travels in the header; cookies of the merchant's site are none of our business.
        credentials: 'omit',
        // Never an answer from the HTTP cache: after Back, Chrome may serve a page's earlier
        // GETs from its cache (a session still "open" when a payment is under way).
        cache: 'no-store',
        signal,
      });
    } catch (e) {
      if (signal.aborted) throw e;
      throw new ApiError('network', e instanceof Error ? e.message : String(e));
    }
    const json: unknown = await res.json().catch(() => undefined);
    if (res.ok && json !== undefined) return json as T;
    const err = (json as { error?: Partial<WidgetApiError> } | undefined)?.error;
    const code: ApiErrorCode =
      res.status === 401 || err?.code === 'unauthorized'
        ? 'session-expired'
        : (err?.code ?? (res.status >= 500 ? 'internal' : 'validation'));
    throw new ApiError(
      code,
      err?.message ?? `HTTP ${res.status}`,
      res.status,
      err?.field,
      err?.requestId,
    );
  }

  /** once(), retried: for calls that are safe to repeat (a payment POST is never sent twice). */
  async function retried<T>(
    method: 'GET' | 'POST',
    route: string,
    body?: unknown,
    signal = o.signal,
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await once<T>(method, route, body, signal);
      } catch (e) {
        const delay = RETRY_DELAYS_MS[attempt];
        if (!retryable(e) || delay === undefined) throw e;
        await sleep(o.clock, delay, signal);
      }
    }
  }

  return {
    origin: new URL(o.backend).origin,
    session: () => retried<SessionView>('GET', 'session'),
    pay: (body) => once<NextAction>('POST', 'pay', body),
    methodResult: (body) => retried<NextAction>('POST', 'method-result', body),
    next: (wait = LONG_POLL_S, signal?: AbortSignal) =>
      retried<NextAction>(
        'GET',
        `next?wait=${wait}`,
        undefined,
        signal ? AbortSignal.any([o.signal, signal]) : o.signal,
      ),
    cancel: (body) => retried<NextAction>('POST', 'cancel', body),
    hosted: (body) => once<NextAction>('POST', 'hosted', body),
    extend: (body) => retried<ExtendAnswer>('POST', 'extend', body),
  };
}
