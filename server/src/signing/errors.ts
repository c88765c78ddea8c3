import { PayCheckoutError } from '../errors.js';

export type SigningErrorCode =
  | 'invalid-amount'
  | 'unknown-currency'
  | 'missing-control-input'
  | 'invalid-credentials'
  | 'invalid-private-key'
  | 'weak-private-key';

/** A value that cannot be signed, or a signer that cannot be built. Never carries a secret. */
export class SigningError extends PayCheckoutError {
  declare readonly code: SigningErrorCode;

  constructor(code: SigningErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
