/** `Authorization: Bearer MERCHANT_API_KEY` (or another key: METRICS_TOKEN), compared in constant time. */
import type { Request, RequestHandler } from 'express';
import { constantTimeEqual } from '../../../signing/index.js';
import { HttpError } from '../../errors.js';

/** The request carries the merchant API key. */
export function hasMerchantKey(req: Request, apiKey: string): boolean {
  const match = /^Bearer (.+)$/.exec(req.get('authorization') ?? '');
  return Boolean(match?.[1] && constantTimeEqual(match[1], apiKey));
}

export function merchantAuth(apiKey: string, what = 'API key'): RequestHandler {
  return (req, _res, next) => {
    if (!hasMerchantKey(req, apiKey)) {
      throw new HttpError(401, 'unauthorized', `Missing or invalid ${what}`);
    }
    next();
  };
}
