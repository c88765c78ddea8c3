/** The Subresource Integrity value of some bytes, as browsers check `integrity`: sha384, base64. */
import { createHash } from 'node:crypto';

export function sri(bytes: string | Uint8Array): string {
  return `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
}
