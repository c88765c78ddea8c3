/**
 * Verifies an incoming OAuth 1.0a request as the gateway does (the sandbox uses this). Pure:
 * the clock is a parameter, and nonce replay is the caller's state to keep.
 */
import type { KeyObject } from 'node:crypto';
import { type Param, signatureBaseString } from './oauth-base-string.js';
import { MalformedAuthorizationHeader, parseAuthorizationHeader } from './oauth-header.js';
import { type OAuthSignatureMethod, verifyHmacSha1, verifyRsaSha256 } from './oauth-methods.js';

export const DEFAULT_MAX_CLOCK_SKEW_SECONDS = 300;

const REQUIRED = [
  'oauth_consumer_key',
  'oauth_nonce',
  'oauth_signature_method',
  'oauth_timestamp',
  'oauth_version',
  'oauth_signature',
] as const;

export interface OAuthConsumerSecrets {
  /** For HMAC-SHA1. */
  controlKey?: string;
  /** For RSA-SHA256. */
  publicKey?: KeyObject;
}

export interface OAuthVerifyInput {
  method: string;
  /** The full request URL as the client addressed it (scheme, host, port, path, query). */
  url: string;
  authorization: string | undefined;
  /** The decoded form body, in order. */
  body: readonly Param[];
}

export interface OAuthVerifyOptions {
  expectedMethod: OAuthSignatureMethod;
  lookup: (consumerKey: string) => OAuthConsumerSecrets | undefined;
  /** Seconds since the epoch. */
  now: number;
  maxClockSkewSeconds?: number;
}

export type OAuthFailureReason =
  | 'missing-header'
  | 'malformed-header'
  | 'missing-parameter'
  | 'unsupported-version'
  | 'wrong-signature-method'
  | 'unknown-consumer'
  | 'stale-timestamp'
  | 'body-mismatch'
  | 'bad-signature';

export type OAuthVerification =
  | { ok: true; consumerKey: string; nonce: string; timestamp: number }
  | { ok: false; reason: OAuthFailureReason; message: string };

const fail = (reason: OAuthFailureReason, message: string): OAuthVerification => ({
  ok: false,
  reason,
  message,
});

export function verifyOAuthRequest(
  input: OAuthVerifyInput,
  options: OAuthVerifyOptions,
): OAuthVerification {
  if (!input.authorization) return fail('missing-header', 'the Authorization header is missing');
  let header: Map<string, string>;
  try {
    header = parseAuthorizationHeader(input.authorization);
  } catch (error) {
    if (error instanceof MalformedAuthorizationHeader) {
      return fail('malformed-header', `the Authorization header is malformed: ${error.message}`);
    }
    throw error;
  }
  for (const name of REQUIRED) {
    if (!header.get(name)) return fail('missing-parameter', `${name} is missing from the header`);
  }
  const get = (name: (typeof REQUIRED)[number]) => header.get(name) ?? '';
  if (get('oauth_version') !== '1.0') {
    return fail('unsupported-version', 'oauth_version must be 1.0');
  }
  if (get('oauth_signature_method') !== options.expectedMethod) {
    return fail(
      'wrong-signature-method',
      `this operation is signed with ${options.expectedMethod}`,
    );
  }
  const timestamp = Number(get('oauth_timestamp'));
  const skew = options.maxClockSkewSeconds ?? DEFAULT_MAX_CLOCK_SKEW_SECONDS;
  if (!/^\d{1,12}$/.test(get('oauth_timestamp')) || Math.abs(options.now - timestamp) > skew) {
    return fail('stale-timestamp', `oauth_timestamp is not within ${skew} s of the server clock`);
  }
  const consumerKey = get('oauth_consumer_key');
  const secrets = options.lookup(consumerKey);
  if (!secrets) return fail('unknown-consumer', 'oauth_consumer_key is not a known merchant login');

  // The protocol parameters are signed once, from the header. A body may repeat them (the
  // gateway's HMAC example does); then they must agree with the header.
  const protocol: Param[] = [...header].filter(
    ([name]) => name !== 'oauth_signature' && name !== 'realm',
  );
  const bodyParams: Param[] = [];
  for (const [name, value] of input.body) {
    if (!name.startsWith('oauth_')) {
      bodyParams.push([name, value]);
    } else if (header.get(name) !== value || name === 'oauth_signature') {
      return fail('body-mismatch', `${name} in the body does not match the header`);
    }
  }
  const base = signatureBaseString(input.method, input.url, [...bodyParams, ...protocol]);
  const signature = get('oauth_signature');
  const valid =
    options.expectedMethod === 'HMAC-SHA1'
      ? secrets.controlKey !== undefined && verifyHmacSha1(base, signature, secrets.controlKey)
      : secrets.publicKey !== undefined && verifyRsaSha256(base, signature, secrets.publicKey);
  if (!valid) return fail('bad-signature', 'oauth_signature does not match the request');
  return { ok: true, consumerKey, nonce: get('oauth_nonce'), timestamp };
}
