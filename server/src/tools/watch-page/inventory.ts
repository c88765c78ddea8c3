/**
 * What PCI DSS 11.6.1 asks to watch on a payment page, read from its HTML and headers as the
 * browser receives them: every `<script>` (an external one by its address and `integrity`, an
 * inline one by its CSP hash) and the security-relevant headers. Pure; snapshot.ts fetches.
 *
 * Values that differ on every load by design are written in a form that does not: a nonce
 * (`nonce="…"`, `'nonce-…'` in a policy) is never recorded.
 */
import { createHash } from 'node:crypto';

export interface ScriptEntry {
  /** The absolute address of an external script; absent for an inline one. */
  src?: string;
  /** Its `integrity` attribute, if any. */
  integrity?: string;
  /** An inline script's CSP hash (`sha256-…`), what `script-src` would list to allow it. */
  inline?: string;
  /** `type` when not plain JavaScript (`module`, `importmap`, `application/ld+json`). */
  type?: string;
  /** The sha384 of an external script's bytes as fetched (snapshot.ts), or why it could not be. */
  content?: string;
}

export interface PageInventory {
  url: string;
  scripts: ScriptEntry[];
  /** Lower-case header name → value; a policy set by `<meta http-equiv>` as `meta:<name>`. */
  headers: Record<string, string>;
}

/** The headers an assessor looks at on a payment page. */
export const WATCHED_HEADERS = [
  'content-security-policy',
  'content-security-policy-report-only',
  'reporting-endpoints',
  'permissions-policy',
  'referrer-policy',
  'x-frame-options',
  'x-content-type-options',
  'strict-transport-security',
  'cross-origin-opener-policy',
] as const;

const ENTITIES: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' };
const decode = (text: string) =>
  text.replace(/&(amp|quot|apos|lt|gt|#(\d+)|#x([0-9a-f]+));/gi, (all, name, dec, hex) =>
    dec
      ? String.fromCodePoint(Number(dec))
      : hex
        ? String.fromCodePoint(Number.parseInt(hex, 16))
        : (ENTITIES[name.toLowerCase()] ?? all),
  );

/** A tag's attributes, names lower-cased, values decoded (`true` for a bare attribute). */
export function attributesOf(tag: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const m of tag.matchAll(
    /([^\s"'=<>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g,
  )) {
    const name = (m[1] as string).toLowerCase();
    if (!(name in attributes)) attributes[name] = decode(m[2] ?? m[3] ?? m[4] ?? '');
  }
  return attributes;
}

/** A policy without its per-load nonces. */
export const withoutNonces = (policy: string) => policy.replace(/'nonce-[^']*'/g, "'nonce-…'");

export function pageInventory(
  url: string,
  html: string,
  headers: Headers | Record<string, string>,
): PageInventory {
  const get = (name: string) =>
    headers instanceof Headers ? headers.get(name) : (headers[name] ?? null);
  const recorded: Record<string, string> = {};
  for (const name of WATCHED_HEADERS) {
    const value = get(name);
    if (value !== null)
      recorded[name] = name.startsWith('content-security') ? withoutNonces(value) : value;
  }
  // Comments hide tags from the browser: from this reading too.
  const page = html.replace(/<!--[\s\S]*?-->/g, '');
  for (const m of page.matchAll(/<meta\b([^>]*)>/gi)) {
    const a = attributesOf(m[1] as string);
    const name = a['http-equiv']?.toLowerCase();
    if (
      name &&
      WATCHED_HEADERS.includes(name as (typeof WATCHED_HEADERS)[number]) &&
      a.content !== undefined
    )
      recorded[`meta:${name}`] = name.startsWith('content-security')
        ? withoutNonces(a.content)
        : a.content;
  }
  const scripts: ScriptEntry[] = [];
  for (const m of page.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const a = attributesOf(m[1] as string);
    const entry: ScriptEntry = {};
    if (a.src !== undefined) {
      try {
        entry.src = new URL(a.src, url).href;
      } catch {
        entry.src = a.src;
      }
      if (a.integrity) entry.integrity = a.integrity;
    } else {
      entry.inline = `sha256-${createHash('sha256')
        .update(m[2] as string)
        .digest('base64')}`;
    }
    if (a.type && !/^(text|application)\/javascript$/i.test(a.type)) entry.type = a.type;
    scripts.push(entry);
  }
  return { url, scripts, headers: recorded };
}
