import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Compares two strings in time that depends on neither their content nor their lengths: both are
 * hashed first, so `timingSafeEqual` always sees 32 bytes.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b)) && a.length === b.length;
}
