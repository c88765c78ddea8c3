/** `Authorization: Bearer MERCHANT_API_KEY`, compared in constant time. */
import type { RequestHandler } from 'express';
import { constantTimeEqual } from '../../signing/index.js';
import { HttpError } from '../errors.js';

export function merchantAuth(apiKey: string): RequestHandler {
  return (req, _res, next) => {
    const match = /^Bearer (.+)$/.exec(req.get('authorization') ?? '');
    if (!match?.[1] || !constantTimeEqual(match[1], apiKey)) {
      throw new HttpError(401, 'unauthorized', 'Missing or invalid API key');
    }
    next();
  };
}
