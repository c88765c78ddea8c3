/**
 * A client_orderid the store refused, as the API answers it: creating a session
 * (http/merchant-api/sessions.ts) and starting any merchant operation (operations/operation-runner.ts).
 */
import { type ClientOrderIdHolder, ClientOrderIdTakenError } from '../store/index.js';
import { HttpError } from './errors.js';

/**
 * The store refused an id that a session, an attempt or a merchant operation holds already (one
 * namespace for every client_orderid sent to the gateway): the 409 that names `orderId` and what
 * uses it; null for any other error.
 */
export function orderIdTaken(error: unknown, orderId: string): HttpError | null {
  if (!(error instanceof ClientOrderIdTakenError)) return null;
  return new HttpError(
    409,
    'conflict',
    `orderId ${orderId} is already used${usedFor(error.holder)}`,
    'orderId',
  );
}

function usedFor(holder: ClientOrderIdHolder | null): string {
  if (!holder) return '';
  if (holder.kind === 'session') return ' for a checkout session';
  if (holder.kind !== 'attempt')
    return ` for ${/^[aeiou]/.test(holder.kind) ? 'an' : 'a'} ${holder.kind}`;
  if (!holder.merchantOrderId || !holder.attempt) return ' for a payment attempt';
  return ` for payment attempt ${holder.attempt} of order ${holder.merchantOrderId}`;
}
