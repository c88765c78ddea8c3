/**
 * The sandbox's refusals. Each carries the HTTP status and the gateway's response `type`; the one
 * error middleware turns it into a JSON body. Anything else thrown becomes a 500.
 */
import { PayCheckoutError } from '../../errors.js';

export class SandboxError extends PayCheckoutError {
  readonly httpStatus: number;
  /** The request field at fault, when there is one. */
  readonly field: string | undefined;

  constructor(httpStatus: number, code: string, message: string, field?: string) {
    super(code, message);
    this.httpStatus = httpStatus;
    this.field = field;
  }
}

/** 400: a field is missing or malformed. The message names the field. */
export function invalidField(field: string, message: string): SandboxError {
  return new SandboxError(400, 'invalid-field', `${field}: ${message}`, field);
}

export function missingField(field: string): SandboxError {
  return invalidField(field, 'is required');
}

/** 400: the request is well formed but not allowed now (a transition rule, an unknown order). */
export function refused(code: string, message: string, field?: string): SandboxError {
  return new SandboxError(400, code, message, field);
}

/** 403: the OAuth signature, consumer, timestamp or nonce is wrong. */
export function forbidden(message: string): SandboxError {
  return new SandboxError(403, 'forbidden', message);
}
