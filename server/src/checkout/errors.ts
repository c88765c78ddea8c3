/**
 * HTTP errors and the one error middleware. Routes throw; this file decides the status and the
 * body. Every error body is `{ error: { code, message, field?, requestId } }` (the widget's
 * WidgetApiError shape, shared by the merchant API). Unexpected errors become a bare 500 with the
 * request id: their message may name internals and never reaches the client.
 */
import type { ErrorRequestHandler } from 'express';
import { z } from 'zod';
import type { WidgetApiErrorCode } from '../../../contract/api-types.js';
import { holdsCardLikeNumber } from '../card-number.js';
import { PayCheckoutError } from '../errors.js';
import { GatewayError } from '../gateway/index.js';
import { controlCharacterPath, illFormedTextPath } from './control-characters.js';
import type { Logger } from './logger.js';

/**
 * The widget API's codes (the contract), and the merchant API's own: a reused key, a card
 * reference you forgot named by a route that would charge it (409, `field` names it), and a
 * method a path does not take (405, with `Allow`).
 */
export type HttpErrorCode =
  | WidgetApiErrorCode
  | 'idempotency-conflict'
  | 'card-ref-forgotten'
  | 'method-not-allowed';

export class HttpError extends PayCheckoutError {
  readonly status: number;
  readonly field: string | undefined;
  /**
   * The answer holds for now only: the same request may succeed once another operation is final,
   * so an Idempotency-Key does not keep it. `retryAfterSeconds`, when known, is sent as
   * `Retry-After`.
   */
  readonly forNow: { retryAfterSeconds?: number } | undefined;
  declare readonly code: HttpErrorCode;

  constructor(
    status: number,
    code: HttpErrorCode,
    message: string,
    field?: string,
    forNow?: { retryAfterSeconds?: number },
  ) {
    super(code, message);
    this.status = status;
    this.field = field;
    this.forNow = forNow;
  }
}

export const badRequest = (field: string, message: string) =>
  new HttpError(400, 'validation', message, field);
export const notFound = (what: string) => new HttpError(404, 'not-found', `${what} not found`);
export const conflict = (message: string) => new HttpError(409, 'conflict', message);
/**
 * A 409 that another operation's end will lift: not kept under an Idempotency-Key, with
 * `Retry-After: seconds` when that end is near (none when it waits for a person).
 */
export const conflictForNow = (message: string, seconds?: number) =>
  new HttpError(409, 'conflict', message, undefined, seconds ? { retryAfterSeconds: seconds } : {});

/** The first zod issue as a 400 naming the field by its dotted path. */
export function fromZodError(error: z.ZodError, prefix = ''): HttpError {
  const issue = error.issues[0];
  // A key is named in the field's path and in zod's messages: never echo one holding a card number.
  const segment = (key: PropertyKey) =>
    holdsCardLikeNumber(String(key)) ? '(a key)' : String(key);
  const segments = issue?.path.map(segment) ?? [];
  // A key the request does not take is the field to name (its first, unless it looks like a card
  // number: then the object that holds it, and the key not shown).
  const unknownKeys = issue?.code === 'unrecognized_keys' ? issue.keys : [];
  const unknownKey = unknownKeys[0];
  const named = unknownKey !== undefined && !unknownKeys.some(holdsCardLikeNumber);
  if (named) segments.push(unknownKey);
  const field = [prefix, ...segments].filter(Boolean).join('.') || 'body';
  let message = issue ? `${field}: ${issue.message}` : `${field} is invalid`;
  if (issue?.code === 'invalid_key')
    message = `${field}: the key ${issue.issues[0]?.message ?? 'is invalid'}`;
  if (named) message = `${field}: is not a field of this request`;
  else if (unknownKey !== undefined)
    message = `${field}: holds a key that is not a field (not shown: it looks like a card number)`;
  return badRequest(field, message);
}

/**
 * Parses with `schema` or throws a 400 naming the field; also when a string of what it parsed
 * holds a control character (control-characters.ts), which no schema needs to repeat.
 */
export function parseOr400<S extends z.ZodType>(
  schema: S,
  value: unknown,
  prefix = '',
): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw fromZodError(result.error, prefix);
  const named = (at: string) => [prefix, at].filter(Boolean).join('.') || 'body';
  const control = controlCharacterPath(result.data);
  if (control !== undefined)
    throw badRequest(named(control), `${named(control)}: must not hold control characters`);
  const illFormed = illFormedTextPath(result.data);
  if (illFormed !== undefined)
    throw badRequest(
      named(illFormed),
      `${named(illFormed)}: must be well-formed text (it holds half of a UTF-16 surrogate pair)`,
    );
  return result.data;
}

export interface ErrorBody {
  error: { code: string; message: string; field?: string; requestId?: string };
}

export function errorBody(error: HttpError, requestId: string | undefined): ErrorBody {
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.field ? { field: error.field } : {}),
      ...(requestId ? { requestId } : {}),
    },
  };
}

/**
 * Client mistakes that Express and its body parsers report as errors with a 4xx `status`: a body
 * too large, not JSON, in an unknown charset or a `Content-Encoding` it does not match, or a path
 * that is not valid percent-encoding. Each is the client's to fix, so it is a 4xx, never a 500.
 */
function fromParserError(error: unknown): HttpError | undefined {
  const e = error as { type?: unknown; status?: unknown; statusCode?: unknown };
  const status = typeof e.status === 'number' ? e.status : e.statusCode;
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  if (e.type === 'entity.too.large')
    return new HttpError(413, 'payload-too-large', 'Body too large');
  if (e.type === 'entity.parse.failed') return badRequest('body', 'Body is not valid JSON');
  if (error instanceof URIError)
    return badRequest('path', 'The path is not valid percent-encoding');
  return badRequest('body', 'Body could not be read');
}

/** Maps errors thrown by the gateway client (every one is a GatewayError). */
function fromGatewayError(error: unknown): HttpError | undefined {
  if (!(error instanceof GatewayError)) return undefined;
  return new HttpError(502, 'gateway', 'The payment gateway could not process the request');
}

export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const requestId = res.locals.requestId as string | undefined;
    const known =
      error instanceof HttpError
        ? error
        : error instanceof z.ZodError
          ? fromZodError(error)
          : (fromParserError(error) ?? fromGatewayError(error));
    if (known) {
      if (known.status >= 500) logger.warn({ err: error, requestId }, 'request failed');
      if (res.headersSent) return;
      if (known.forNow) {
        // Read by the Idempotency-Key layer (idempotency.ts), which then keeps nothing.
        res.locals.answerForNow = true;
        const seconds = known.forNow.retryAfterSeconds;
        if (seconds !== undefined) res.set('Retry-After', String(seconds));
      }
      res.status(known.status).json(errorBody(known, requestId));
      return;
    }
    logger.error({ err: error, requestId, method: req.method, path: req.path }, 'unexpected error');
    if (res.headersSent) return;
    res.status(500).json({
      error: { code: 'internal', message: 'Internal error', ...(requestId ? { requestId } : {}) },
    });
  };
}
