/**
 * The widget's session token: an HS256 JWT bound to one checkout session. The algorithm is pinned
 * on both sides (a token claiming `none` or RS256 is refused), the audience names the widget API
 * so no other token of ours can be replayed here, and it expires with the session (a token
 * without `exp` is refused).
 */
import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { HttpError } from '../errors.js';

const AUDIENCE = 'pay-checkout-widget';
const ISSUER = 'pay-checkout';

/**
 * The secret as a KeyObject, made once per secret. Given a string, jsonwebtoken first tries to
 * parse it as a PEM public (or private) key on every call and only then falls back to an HMAC
 * key; that failed parse was a fifth of the CPU time of a session read (test/bench/RESULTS.md).
 * Beside it, the tokens this secret verified lately: a widget sends the same token with each of
 * its calls, and a token that verified once verifies again (no claim we check depends on the
 * time; expiry is the caller's). Only exact strings that verified are kept, at most VERIFIED_MAX.
 */
interface Keyed {
  secret: string;
  key: KeyObject;
  verified: Map<string, VerifiedToken>;
}
let keyed: Keyed | undefined;
const VERIFIED_MAX = 1_000;

function keyedBy(secret: string): Keyed {
  if (keyed?.secret !== secret) {
    keyed = { secret, key: createSecretKey(Buffer.from(secret, 'utf8')), verified: new Map() };
  }
  return keyed;
}

export function signSessionToken(secret: string, sessionId: string, expiresAt: Date): string {
  const exp = Math.floor(expiresAt.getTime() / 1000);
  return jwt.sign({ exp }, keyedBy(secret).key, {
    algorithm: 'HS256',
    audience: AUDIENCE,
    issuer: ISSUER,
    subject: sessionId,
  });
}

export interface VerifiedToken {
  sessionId: string;
  /** Its `exp` in ms: once past, the caller decides whether the session may still be read. */
  expiresAtMs: number;
}

/**
 * The session a genuine token names, and whether it is past its expiry; a 401 for anything else.
 * An expired token is not refused here: a payment in flight outlives its session's 30 minutes.
 */
export function verifySessionToken(secret: string, token: string): VerifiedToken {
  const { key, verified } = keyedBy(secret);
  const known = verified.get(token);
  if (known) return known;
  let result: VerifiedToken;
  try {
    const payload = jwt.verify(token, key, {
      algorithms: ['HS256'],
      audience: AUDIENCE,
      issuer: ISSUER,
      ignoreExpiration: true,
    });
    if (typeof payload === 'string' || typeof payload.sub !== 'string' || !payload.sub) {
      throw new Error('no subject');
    }
    // A token without `exp` would never expire.
    if (typeof payload.exp !== 'number') throw new Error('no expiry');
    result = { sessionId: payload.sub, expiresAtMs: payload.exp * 1000 };
  } catch {
    throw new HttpError(401, 'unauthorized', 'Missing or invalid session token');
  }
  // The oldest entry goes first (a Map keeps insertion order).
  if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value as string);
  verified.set(token, result);
  return result;
}

export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(header ?? '');
  return match?.[1];
}
