/**
 * One HTTP POST of a form body, with a timeout. Uses the injected `fetch`, by default the client's
 * own (http-post.ts: node:http with keep-alive agents); an injected fetch brings its own policy.
 */
import type { Param } from '../signing/index.js';
import { GatewayTimeoutError, GatewayTransportError } from './errors.js';
import { redactText } from './sanitize.js';

export interface FetchInit {
  method: 'POST';
  headers: Record<string, string>;
  body: Uint8Array<ArrayBuffer>;
  signal: AbortSignal;
  /**
   * Always `manual`: a 307 or 308 would re-send the body (card number, CVV) to whatever host the
   * `Location` names. The 3xx comes back as the answer, and no gateway answer is a 3xx, so it
   * fails as an unexpected body (classify.ts) and is not retried.
   */
  redirect: 'manual';
}

export interface FetchResponseLike {
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

/** The part of `fetch` the client uses; the global fetch satisfies it, and so does httpPost. */
export type FetchLike = (url: string, init: FetchInit) => Promise<FetchResponseLike>;

export interface HttpRequest {
  url: string;
  body: readonly Param[];
  authorization?: string | undefined;
  requestId: string;
  timeoutMs: number;
  operation: string;
  /** Values to scrub from any low-level error text kept in the error (card number, keys...). */
  secrets: readonly string[];
}

export interface HttpAnswer {
  httpStatus: number;
  contentType: string;
  bodyText: string;
}

export const JSON_ACCEPT = 'application/vnd.pay+json';

/** `a=1&b=2`, URLSearchParams encoding (space as `+`, which the gateway decodes as a space). */
export function encodeForm(body: readonly Param[]): string {
  return new URLSearchParams(
    body.map(([name, value]): [string, string] => [name, value]),
  ).toString();
}

export async function postForm(fetchImpl: FetchLike, request: HttpRequest): Promise<HttpAnswer> {
  const bytes = new TextEncoder().encode(encodeForm(request.body));
  const headers: Record<string, string> = {
    Accept: JSON_ACCEPT,
    'Content-Type': 'application/x-www-form-urlencoded',
    // Bytes, not characters: a name like "Zoë" is 3 characters and 4 bytes.
    'Content-Length': String(bytes.byteLength),
    'X-Request-Id': request.requestId,
  };
  if (request.authorization) headers.Authorization = request.authorization;

  const controller = new AbortController();
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  // Raced as well as signalled, so a fetch that ignores the signal still cannot hang a payment.
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
      reject(new Error('timeout'));
    }, request.timeoutMs);
  });
  const details = { operation: request.operation, requestId: request.requestId };
  try {
    return await Promise.race([
      (async () => {
        const response = await fetchImpl(request.url, {
          method: 'POST',
          headers,
          body: bytes,
          signal: controller.signal,
          redirect: 'manual',
        });
        const bodyText = await response.text();
        return {
          httpStatus: response.status,
          contentType: response.headers.get('content-type') ?? '',
          bodyText,
        };
      })(),
      deadline,
    ]);
  } catch (error) {
    if (timedOut) {
      throw new GatewayTimeoutError(
        `${request.operation}: no answer from the gateway within ${request.timeoutMs} ms`,
        details,
      );
    }
    throw new GatewayTransportError(`${request.operation}: the gateway could not be reached`, {
      ...details,
      causeSummary: redactText(summarizeCause(error), request.secrets),
    });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Name, code and message of a network error and its cause (undici hides ECONNREFUSED one level
 * down). Only these strings are kept: the error object itself could reference the request.
 */
function summarizeCause(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 3 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    parts.push(`${current.name}${typeof code === 'string' ? ` ${code}` : ''}: ${current.message}`);
    current = current.cause;
  }
  return parts.join(' <- ') || String(error);
}
