/**
 * The OAuth 1.0a signature base string, RFC 5849 section 3.4.1.
 */

/** A request parameter. A list (not a map) because names may repeat and order of equal names matters. */
export type Param = readonly [name: string, value: string];

/** RFC 3986 percent-encoding: everything but unreserved characters, so `!'()*` too, space `%20`. */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };

/** Section 3.4.1.2: lowercase scheme and host, no default port, path kept, no query or fragment. */
export function normalizeUrl(url: string | URL): string {
  const u = new URL(url);
  const port = u.port && u.port !== DEFAULT_PORTS[u.protocol] ? `:${u.port}` : '';
  return `${u.protocol}//${u.hostname.toLowerCase()}${port}${u.pathname}`;
}

/** Section 3.4.1.3.2: encode, sort by encoded name then encoded value, join with `&`. */
export function normalizeParameters(params: readonly Param[]): string {
  const encoded = params.map(([name, value]) => [percentEncode(name), percentEncode(value)]);
  encoded.sort(([an = '', av = ''], [bn = '', bv = '']) =>
    an === bn ? compareStrings(av, bv) : compareStrings(an, bn),
  );
  return encoded.map(([name, value]) => `${name}=${value}`).join('&');
}

/** Byte order of ASCII text (encoded values are ASCII), not locale order. */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The query of `url` as parameters, decoded the way a form body is (`+` is a space). */
export function queryParams(url: string | URL): Param[] {
  return [...new URL(url).searchParams];
}

/**
 * `METHOD&enc(normalized URL)&enc(normalized parameters)`. `params` are the body parameters and
 * the protocol parameters (never `oauth_signature` or `realm`); the URL's query is added here.
 */
export function signatureBaseString(method: string, url: string, params: readonly Param[]): string {
  const all = [...queryParams(url), ...params];
  return [
    method.toUpperCase(),
    percentEncode(normalizeUrl(url)),
    percentEncode(normalizeParameters(all)),
  ].join('&');
}
