/**
 * Signs gateway requests with OAuth 1.0a (schemes B and C). Built once per merchant: the
 * credentials are checked when the signer is made, so a bad key fails at start-up, not mid-sale.
 */
import { randomBytes } from 'node:crypto';
import { SigningError } from './errors.js';
import { type Param, signatureBaseString } from './oauth-base-string.js';
import { buildAuthorizationHeader } from './oauth-header.js';
import {
  hmacSha1Signature,
  loadRsaPrivateKey,
  type OAuthSignatureMethod,
  rsaSha256Signature,
} from './oauth-methods.js';

export interface OAuthSignerOptions {
  /** The merchant login. */
  consumerKey: string;
  /** Seconds since the epoch; injectable for tests. */
  clock?: () => number;
  /** A unique random string per request; injectable for tests. */
  nonce?: () => string;
}

export type OAuthSignerConfig =
  | (OAuthSignerOptions & { method: 'HMAC-SHA1'; controlKey: string })
  | (OAuthSignerOptions & { method: 'RSA-SHA256'; privateKeyPem: string });

export interface SignedRequest {
  /** The `Authorization` header value. */
  authorization: string;
  /** The form body to send: the request's parameters, plus the `oauth_*` ones for HMAC-SHA1. */
  body: Param[];
  /** The signature base string (no secret in it), for diagnostics. */
  baseString: string;
}

export interface OAuthSigner {
  readonly method: OAuthSignatureMethod;
  sign(request: { method?: string; url: string; params: readonly Param[] }): SignedRequest;
}

const systemClock = () => Math.floor(Date.now() / 1000);
const randomNonce = () => randomBytes(18).toString('base64url');

export function createOAuthSigner(config: OAuthSignerConfig): OAuthSigner {
  if (!config.consumerKey) {
    throw new SigningError(
      'invalid-credentials',
      'the OAuth consumer key (merchant login) is empty',
    );
  }
  const clock = config.clock ?? systemClock;
  const nonce = config.nonce ?? randomNonce;
  let signBase: (base: string) => string;
  if (config.method === 'HMAC-SHA1') {
    if (!config.controlKey) {
      throw new SigningError('invalid-credentials', 'the merchant control key is empty');
    }
    const { controlKey } = config;
    signBase = (base) => hmacSha1Signature(base, controlKey);
  } else {
    const key = loadRsaPrivateKey(config.privateKeyPem);
    signBase = (base) => rsaSha256Signature(base, key);
  }
  // The real gateway wants the protocol parameters repeated in an HMAC request's body.
  const oauthInBody = config.method === 'HMAC-SHA1';

  return {
    method: config.method,
    sign({ method = 'POST', url, params }) {
      const oauth = {
        oauth_consumer_key: config.consumerKey,
        oauth_nonce: nonce(),
        oauth_signature_method: config.method,
        oauth_timestamp: String(clock()),
        oauth_version: '1.0',
      };
      const oauthParams = Object.entries(oauth) as Param[];
      const baseString = signatureBaseString(method, url, [...params, ...oauthParams]);
      const signature = signBase(baseString);
      return {
        authorization: buildAuthorizationHeader({ ...oauth, oauth_signature: signature }),
        body: oauthInBody ? [...params, ...oauthParams] : [...params],
        baseString,
      };
    },
  };
}
