/** Request signing for the gateway: pure functions, no framework and no I/O. */
export { fromMinorUnits, toControlCents, toMinorUnits } from './amount.js';
export { constantTimeEqual } from './compare.js';
export {
  CONTROL_INPUTS,
  type ControlOperation,
  type ControlValues,
  computeControl,
  controlNeedsLogin,
  controlString,
  sha1Hex,
  verifyControl,
} from './control.js';
export { currencyExponent, isKnownCurrency, knownCurrencies } from './currencies.js';
export { SigningError, type SigningErrorCode } from './errors.js';
export {
  normalizeParameters,
  normalizeUrl,
  type Param,
  percentEncode,
  queryParams,
  signatureBaseString,
} from './oauth-base-string.js';
export {
  buildAuthorizationHeader,
  MalformedAuthorizationHeader,
  parseAuthorizationHeader,
} from './oauth-header.js';
export {
  hmacSha1Signature,
  loadRsaPrivateKey,
  loadRsaPublicKey,
  MIN_RSA_BITS,
  type OAuthSignatureMethod,
  rsaSha256Signature,
  verifyHmacSha1,
  verifyRsaSha256,
} from './oauth-methods.js';
export {
  createOAuthSigner,
  type OAuthSigner,
  type OAuthSignerConfig,
  type SignedRequest,
} from './oauth-signer.js';
export {
  DEFAULT_MAX_CLOCK_SKEW_SECONDS,
  type OAuthConsumerSecrets,
  type OAuthFailureReason,
  type OAuthVerification,
  type OAuthVerifyInput,
  verifyOAuthRequest,
} from './oauth-verifier.js';
