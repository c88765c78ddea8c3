/**
 * The widget's session token: an HS256 JWT bound to one checkout session. The algorithm is pinned
 * on both sides (a token claiming `none` or RS256 is refused), the audience names the widget API
 * so no other token of ours can be replayed here, and it expires with the session.
 */
import jwt from 'jsonwebtoken';
import { HttpError } from '../errors.js';

const AUDIENCE = 'pay-checkout-widget';
const ISSUER = 'pay-checkout';

export function signSessionToken(secret: string, sessionId: string, expiresAt: Date): string {
  const exp = Math.floor(expiresAt.getTime() / 1000);
  return jwt.sign({ exp }, secret, {
    algorithm: 'HS256',
    audience: AUDIENCE,
    issuer: ISSUER,
    subject: sessionId,
  });
}

/** The session id of a valid token; a 401 otherwise (expired tokens say so). */
export function verifySessionToken(secret: string, token: string): string {
  try {
    const payload = jwt.verify(token, secret, {
      algorithms: ['HS256'],
      audience: AUDIENCE,
      issuer: ISSUER,
    });
    if (typeof payload === 'string' || typeof payload.sub !== 'string' || !payload.sub) {
      throw new Error('no subject');
    }
    return payload.sub;
  } catch (error) {
    if (error instanceof jwt.TokenExpiredError) {
      throw new HttpError(401, 'session-expired', 'The checkout session has expired');
    }
    throw new HttpError(401, 'unauthorized', 'Missing or invalid session token');
  }
}

export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(header ?? '');
  return match?.[1];
}
