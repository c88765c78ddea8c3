/** Facts taken from the HTTP request itself (never from a JSON body the browser controls). */
import type { Request } from 'express';

/** What the backend takes from the HTTP request itself, not from the JSON body. */
export interface BrowserRequestFacts {
  ip: string;
  acceptHeader: string;
  userAgent: string;
  /** The merchant page's exact origin, already checked against ALLOWED_ORIGINS. */
  origin: string | null;
}

/** The client's IP; an IPv4 address mapped into IPv6 is given back as plain IPv4. */
export function clientIp(req: Request): string {
  const ip = req.ip ?? req.socket.remoteAddress ?? '';
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}
