/**
 * The one rule for URLs that come from the gateway (ACS, 3DS Method, gateway redirect, hosted
 * form) and for every URL the widget navigates to, posts a form to or frames: `https:` only,
 * plus `http:` to the shopper's own machine (127.0.0.0/8, localhost, [::1]) so the sandbox works.
 * Everything else (`javascript:`, `data:`, `http:` to any other host, relative or unparsable
 * text) is refused. Shared by the backend and the widget, so both refuse exactly the same URLs.
 * Pure: no DOM, no I/O.
 */
import type { NextAction } from './api-types.js';

/** Hosts as the WHATWG URL parser writes them (`http://127.1/` is `127.0.0.1`, IPv6 in brackets). */
function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

/**
 * `loopbackHttp`: whether http: to loopback passes (the widget's default; the backend allows it
 * only while its own gateway is on loopback, the sandbox).
 */
export function isSafeUrl(value: unknown, loopbackHttp = true): value is string {
  if (typeof value !== 'string') return false;
  let url: URL;
  try {
    // No base: a relative URL would resolve against whatever page holds it.
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    url.protocol === 'https:' ||
    (loopbackHttp && url.protocol === 'http:' && isLoopbackHost(url.hostname))
  );
}

/**
 * The members of a NextAction the widget navigates to or frames, or that the launcher page posts
 * to: the gateway's own URLs first, then the launcher page the widget loads to reach them.
 * (`termUrl` is the backend's own return page, which the bank posts to, never the widget.)
 */
const FOLLOWED_URLS = ['methodUrl', 'acsUrl', 'url', 'launchUrl'] as const;

/** The first URL of an action that fails the rule (the widget refuses the action). */
export function unsafeUrlOf(a: NextAction): string | undefined {
  const urls = a as Partial<Record<(typeof FOLLOWED_URLS)[number], string>>;
  return FOLLOWED_URLS.map((name) => urls[name]).find(
    (url) => url !== undefined && !isSafeUrl(url),
  );
}
