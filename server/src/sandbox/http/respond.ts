/**
 * JSON responses as docs/gateway.md#responses describes them: `application/vnd.pay+json`,
 * hyphenated names.
 */
import { randomUUID } from 'node:crypto';
import type { Response } from 'express';

export const PAY_JSON = 'application/vnd.pay+json';

export type PayBody = Record<string, string | number | boolean | null | undefined>;

export function sendPay(res: Response, httpStatus: number, body: PayBody): void {
  const clean: Record<string, string | number | boolean | null> = {};
  for (const [name, value] of Object.entries(body)) if (value !== undefined) clean[name] = value;
  res.status(httpStatus).set('Content-Type', PAY_JSON).send(JSON.stringify(clean));
}

export function serialNumber(): string {
  return randomUUID();
}

/** `ServerErrorResponse` (spec, Errors rule 2): an unexpected failure, in the JSON type too. */
export function sendServerError(res: Response, message = 'Internal server error'): void {
  sendPay(res, 500, {
    type: 'error',
    'serial-number': serialNumber(),
    'error-code': 'server-error',
    'error-message': message,
  });
}
