/**
 * Whether a failed gateway call that changes state (a sale, a 3DS upload) was refused for sure
 * or may have happened. Only an answer in which the gateway says no is a refusal: a validation
 * error (it read the request and refused it) or a refused signature or configuration (it never
 * acted on it). A timeout, a broken connection, a dropped answer, a 5xx or an unreadable body
 * leave the outcome unknown: the gateway may have committed the change and only the answer was
 * lost, so only its status can tell.
 */
import { GatewayError } from '../../gateway/index.js';

export function refusedForSure(error: unknown): error is GatewayError {
  return (
    error instanceof GatewayError &&
    (error.code === 'gateway-validation' ||
      error.code === 'gateway-signature' ||
      error.code === 'gateway-config')
  );
}
