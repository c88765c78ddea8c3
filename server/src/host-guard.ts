/**
 * Routes meant for this machine's own pages (the demo shop's relay with the merchant API key,
 * the sandbox's reset and fault switches) answer only requests whose Host names this machine or
 * the configured public host. A page on another site can otherwise reach them through DNS
 * rebinding: its own name, resolved to 127.0.0.1, makes its requests same-origin to itself
 * while they land here (a 500.00 payout was approved that way through `Host: attacker.example`).
 */
import type { RequestHandler } from 'express';

/** Loopback names as a Host header spells them (IPv6 in brackets). */
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/** The host name of a Host header (port dropped), lower-cased; '' when there is none. */
function hostName(header: string | undefined): string {
  const host = (header ?? '').trim().toLowerCase();
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  return host.split(':')[0] ?? '';
}

/**
 * A 421 for a request whose Host is neither a loopback name nor one of `publicUrls`' hosts
 * (the proxy-facing names a deployment gives in PUBLIC_URL).
 */
export function hostGuard(publicUrls: readonly (string | undefined)[]): RequestHandler {
  const allowed = new Set([
    ...LOOPBACK,
    ...publicUrls.filter((u): u is string => Boolean(u)).map((u) => new URL(u).hostname),
  ]);
  return (req, res, next) => {
    if (allowed.has(hostName(req.headers.host))) return next();
    res.status(421).json({
      error: { code: 'misdirected', message: 'This route answers only its own host names' },
    });
  };
}
