/**
 * The challenge window size inside a 3DS 2 CReq (base64url JSON, padded or not): the size the ACS
 * was actually told, which may differ from what the browser asked for at /pay (a rotated phone, a
 * resized window, or a 3DS Server that chose). The widget sizes its frame by it.
 */
import type { ChallengeWindowSize } from '../../../../contract/api-types.js';
import { WINDOW_SIZES } from '../../../../contract/three-ds.js';

export const isWindowSize = (v: unknown): v is ChallengeWindowSize =>
  typeof v === 'string' && Object.hasOwn(WINDOW_SIZES, v);

/** Undefined when the CReq does not say (or is not base64 JSON at all). */
export function creqWindowSize(creq: string): ChallengeWindowSize | undefined {
  try {
    // Node's base64url decoder takes the plain base64 alphabet and padding too.
    const json: unknown = JSON.parse(Buffer.from(creq, 'base64url').toString('utf8'));
    const size = (json as { challengeWindowSize?: unknown } | null)?.challengeWindowSize;
    return isWindowSize(size) ? size : undefined;
  } catch {
    return undefined;
  }
}
