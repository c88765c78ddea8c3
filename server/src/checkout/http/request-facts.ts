/** Facts taken from the HTTP request itself (never from a JSON body the browser controls). */
import type { Request } from 'express';

/** The client's IP; an IPv4 address mapped into IPv6 is given back as plain IPv4. */
export function clientIp(req: Request): string {
  const ip = req.ip ?? req.socket.remoteAddress ?? '';
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}
