/**
 * EMV 3-D Secure numbers both sides respect: the browser times and sizes its frames by them, the
 * backend checks what the browser reports against them.
 */
import type { ChallengeWindowSize } from './api-types.js';

/** EMV Req 315: a 3DS Method that has not notified within 10 s is reported as `N`. */
export const METHOD_TIMEOUT_MS = 10_000;

/** After this long without an answer from the challenge frame we give up (as Adyen does). */
export const CHALLENGE_TIMEOUT_MS = 600_000;

/** Challenge window sizes, width x height in CSS px; `05` is full screen (null). */
export const WINDOW_SIZES: Record<ChallengeWindowSize, readonly [number, number] | null> = {
  '01': [250, 400],
  '02': [390, 400],
  '03': [500, 600],
  '04': [600, 400],
  '05': null,
};

/** Below this viewport width a fixed 390 px or wider frame no longer fits a phone. */
export const SMALL_VIEWPORT_PX = 460;

/** The colour depths EMV allows for `browserColorDepth`. */
export const COLOR_DEPTHS = [1, 4, 8, 15, 16, 24, 32, 48] as const;
