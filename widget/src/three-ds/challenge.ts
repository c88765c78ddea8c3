/** What goes into the challenge frame (or the top-level page) for each kind of challenge. */
import type { ChallengeWindowSize, NextAction } from '../api-types.js';
import { WINDOW_SIZES } from './constants.js';

export type ChallengeAction = Extract<NextAction, { action: 'challenge' | '3ds1' | 'html' }>;

/** The form to post: 3DS 2 sends lower-case `creq` (ACSes reject `CReq`), 3DS 1.0.2 `PaReq`/`MD`/`TermUrl`. */
export function challengeForm(
  a: ChallengeAction,
): { url: string; fields: Record<string, string | undefined> } | undefined {
  if (a.action === 'challenge') {
    return { url: a.acsUrl, fields: { creq: a.creq, threeDSSessionData: a.threeDSSessionData } };
  }
  if (a.action === '3ds1') {
    // MD must be present even when empty: some ACSes reject the post without it.
    return { url: a.acsUrl, fields: { PaReq: a.paReq, MD: a.md, TermUrl: a.termUrl } };
  }
  return undefined;
}

/** The frame's CSS size; full screen (`05`) fills the dialog instead. */
export function frameStyle(size: ChallengeWindowSize): string {
  const dims = WINDOW_SIZES[size];
  return dims ? `width:${dims[0]}px;height:${dims[1]}px` : 'width:100%;height:100%';
}

/** 3DS 2 challenges name their size; 1.0.2 pages were designed for 390x400. */
export function actionWindowSize(
  a: ChallengeAction,
  chosen: ChallengeWindowSize,
): ChallengeWindowSize {
  return a.action === 'challenge' ? a.challengeWindowSize : chosen === '05' ? '05' : '02';
}

export function acsOrigin(a: ChallengeAction): string | undefined {
  try {
    return a.action === 'html' ? undefined : new URL(a.acsUrl).origin;
  } catch {
    return undefined;
  }
}
