/**
 * Request limits in memory (they count per instance) and the one 429 answer every limit gives:
 * per client IP for what anyone may call without a key (the 3DS return pages, the gateway's
 * callbacks, merchant API requests that bring no valid key, the widget API), and per checkout
 * session in the widget API.
 *
 * A fixed window per key, as express-rate-limit's memory store counts, but without its per-request
 * work (a SHA-256 of the key for the draft-8 `RateLimit-Policy` header, several awaits and checks):
 * the two widget limits were 6-8 % of a session read's CPU time (test/bench/RESULTS.md). A refused
 * request gets `Retry-After`; allowed ones carry no rate-limit headers (the widget, the only
 * client that makes many calls, cannot read them cross-origin anyway).
 */
import type { Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { clientIp } from './request-facts.js';

export interface PublicLimits {
  /** Requests per minute per IP to /return/{ref} (3DS returns, final redirects). */
  returnPerIp: number;
  /**
   * Requests per minute per IP to /callbacks/*. The gateway calls from few addresses, so this is
   * high; a callback refused with 429 is retried by the gateway, and the reconciler polls anyway.
   */
  callbacksPerIp: number;
  /** Merchant API requests without a valid key per IP in 15 minutes (a valid key never counts). */
  failedAuthPerIp: number;
  /**
   * Requests per minute per IP to the payment link page /pay/{id}: each first visit makes a
   * checkout session, and a guessed id costs a look-up.
   */
  payPagePerIp: number;
}

export const DEFAULT_PUBLIC_LIMITS: PublicLimits = {
  returnPerIp: 300,
  callbacksPerIp: 1200,
  failedAuthPerIp: 100,
  payPagePerIp: 60,
};

export const FAILED_AUTH_WINDOW_MS = 15 * 60_000;

/** The 429 body of every limit: the usual error shape with code `rate-limited`. */
export function rateLimited(_req: Request, res: Response): void {
  res.status(429).json({
    error: {
      code: 'rate-limited',
      message: 'Too many requests; slow down',
      requestId: res.locals.requestId,
    },
  });
}

interface Window {
  count: number;
  resetAt: number;
}

/**
 * At most `limit` requests per `windowMs` for each key; a key's window starts at its first
 * request. Windows that ended are dropped once per `windowMs`, so idle keys do not pile up.
 * `skip` requests are not counted.
 */
export function windowLimit(options: {
  limit: number;
  windowMs: number;
  key: (req: Request, res: Response) => string;
  skip?: (req: Request) => boolean;
}): RequestHandler {
  const { limit, windowMs, key, skip } = options;
  const windows = new Map<string, Window>();
  let sweepAt = Date.now() + windowMs;
  return (req, res, next) => {
    if (skip?.(req)) return next();
    const now = Date.now();
    if (now >= sweepAt) {
      for (const [k, w] of windows) if (w.resetAt <= now) windows.delete(k);
      sweepAt = now + windowMs;
    }
    const k = key(req, res);
    let w = windows.get(k);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + windowMs };
      windows.set(k, w);
    }
    w.count += 1;
    if (w.count <= limit) return next();
    res.set('Retry-After', String(Math.max(1, Math.ceil((w.resetAt - now) / 1000))));
    rateLimited(req, res);
  };
}

/**
 * At most `limit` requests per `windowMs` from one client IP (an IPv6 address counts by its /56,
 * so rotating addresses inside one allocation does not reset the count). `skip` requests are not
 * counted.
 */
export function perIpLimit(options: {
  limit: number;
  windowMs: number;
  skip?: (req: Request) => boolean;
}): RequestHandler {
  return windowLimit({ ...options, key: (req) => `ip:${ipKeyGenerator(clientIp(req))}` });
}
