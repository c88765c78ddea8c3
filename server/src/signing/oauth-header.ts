/**
 * The `Authorization: OAuth ...` header: each value percent-encoded and quoted, pairs joined by
 * `, ` (RFC 5849 section 3.5.1).
 */

import { PayCheckoutError } from '../errors.js';
import { percentEncode } from './oauth-base-string.js';

export function buildAuthorizationHeader(
  params: Readonly<Record<string, string>>,
  realm?: string,
): string {
  const pairs = Object.entries(params).map(([name, value]) => `${name}="${percentEncode(value)}"`);
  if (realm !== undefined) pairs.unshift(`realm="${percentEncode(realm)}"`);
  return `OAuth ${pairs.join(', ')}`;
}

/** An Authorization header that is not `OAuth name="value", ...` (what the sandbox refuses). */
export class MalformedAuthorizationHeader extends PayCheckoutError {
  constructor(message: string) {
    super('malformed-authorization', message);
  }
}

const PAIR = /^\s*([A-Za-z0-9_.~-]+)\s*=\s*"([^"]*)"\s*$/;

/**
 * Parses `OAuth name="value", ...` into decoded values. Throws MalformedAuthorizationHeader for
 * anything else: another scheme, an unquoted or badly encoded value, a repeated name.
 */
export function parseAuthorizationHeader(header: string): Map<string, string> {
  const scheme = /^OAuth\s+/i.exec(header);
  if (!scheme) throw new MalformedAuthorizationHeader('the Authorization scheme is not OAuth');
  const params = new Map<string, string>();
  for (const part of header.slice(scheme[0].length).split(',')) {
    const match = PAIR.exec(part);
    if (!match) throw new MalformedAuthorizationHeader('an OAuth parameter is not name="value"');
    const [, name = '', raw = ''] = match;
    if (params.has(name)) throw new MalformedAuthorizationHeader(`${name} is repeated`);
    try {
      params.set(name, decodeURIComponent(raw));
    } catch {
      throw new MalformedAuthorizationHeader(`${name} is not percent-encoded correctly`);
    }
  }
  return params;
}
