/** What the challenge frame shows and how big it is, for each kind of challenge. */
import type { ChallengeWindowSize, NextAction } from '../../../contract/api-types.js';
import { WINDOW_SIZES } from '../../../contract/three-ds.js';

/** A bank step shown in the dialog: a challenge, or the gateway's own page (html, or its address). */
export type ChallengeAction =
  | Extract<NextAction, { action: 'challenge' | '3ds1' | 'html' }>
  | (Extract<NextAction, { action: 'redirect' }> & { launchUrl: string });

/**
 * The step as a bank page for the dialog: a challenge, the gateway's html, or the gateway's 3DS
 * address (its `launchUrl` frames it) unless the merchant wants bank pages at the top level. The
 * hosted form is never one: it is the gateway's payment page, a whole-page visit.
 */
export function bankStepOf(
  a: NextAction,
  redirectReason: 'hosted' | 'gateway',
  mode: 'auto' | 'iframe' | 'redirect',
): ChallengeAction | undefined {
  if (a.action === 'challenge' || a.action === '3ds1' || a.action === 'html') return a;
  if (a.action === 'redirect' && redirectReason === 'gateway' && a.launchUrl && mode !== 'redirect')
    return a as ChallengeAction;
  return undefined;
}

/**
 * The size of the frame: a 3DS 2 challenge's is the backend's (the size inside its CReq, what the
 * ACS was told); 1.0.2 pages were designed for 390x400; a gateway's own page gets the size the
 * browser asked for.
 */
export function actionWindowSize(
  a: ChallengeAction,
  chosen: ChallengeWindowSize,
): ChallengeWindowSize {
  if (a.action === 'challenge') return a.challengeWindowSize;
  if (a.action === '3ds1') return chosen === '05' ? '05' : '02';
  return chosen;
}

/** The frame's CSS size; full screen (`05`) fills the dialog instead. */
export function frameStyle(size: ChallengeWindowSize): string {
  const dims = WINDOW_SIZES[size];
  return dims ? `width:${dims[0]}px;height:${dims[1]}px` : 'width:100%;height:100%';
}

/** `pay-challenge`'s version: the 3DS version, or which kind of gateway page. */
export function challengeVersion(a: ChallengeAction): '2' | '1.0.2' | 'html' | 'redirect' {
  return a.action === 'challenge' ? '2' : a.action === '3ds1' ? '1.0.2' : a.action;
}

/** Whether the page's CSP (`frame-src`, or what stands in for it) refused to frame `frameUrl`'s origin. */
export function framingRefused(e: SecurityPolicyViolationEvent, frameUrl: string): boolean {
  if (!/^(frame|child|default)-src/.test(e.effectiveDirective || e.violatedDirective)) return false;
  try {
    return new URL(e.blockedURI).origin === new URL(frameUrl).origin;
  } catch {
    // Not a URL (`inline`, `eval`): not our frame.
    return false;
  }
}
