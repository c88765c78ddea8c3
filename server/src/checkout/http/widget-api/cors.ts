/**
 * CORS for the widget API: only the merchant pages in ALLOWED_ORIGINS, exact match, no cookies
 * (the session token travels in the Authorization header). A disallowed origin gets no CORS
 * headers at all, so the browser blocks the answer.
 */
import cors from 'cors';
import type { RequestHandler } from 'express';

export function widgetCors(allowedOrigins: readonly string[]): RequestHandler {
  const allowed = new Set(allowedOrigins);
  return cors({
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    methods: ['GET', 'POST'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Accept'],
    exposedHeaders: ['X-Request-Id', 'Retry-After'],
    credentials: false,
    maxAge: 600,
  });
}

/** The request's Origin when it is an allowed merchant page, else null. */
export function allowedOrigin(
  originHeader: string | undefined,
  allowedOrigins: readonly string[],
): string | null {
  return originHeader && allowedOrigins.includes(originHeader) ? originHeader : null;
}
