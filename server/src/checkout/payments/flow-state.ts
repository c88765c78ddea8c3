/**
 * The 3-D Secure progress we keep on the order (its `next_action` jsonb): the action the widget
 * must take now, plus what the browser already did so a stale gateway answer cannot send the
 * shopper through the same step twice. Stored, not held in memory, so any instance (or this one
 * after a restart) can carry on.
 */
import { createHash } from 'node:crypto';
import type { ChallengeWindowSize } from '../../../../widget/src/api-types.js';
import type { JsonObject, Order } from '../../store/index.js';
import { type StoredAction, WAIT_RETRY_MS } from './next-action.js';
import { readSentUpload, type SentUpload } from './sent-upload.js';

export interface FlowState {
  next: StoredAction;
  /** Fingerprints of the challenges (creq / PaReq) whose answer was uploaded. */
  answered: string[];
  /** The window size the widget asked for when paying. */
  challengeWindowSize?: ChallengeWindowSize | undefined;
  /** A 3DS upload sent whose outcome is not known yet (sent-upload.ts); the status decides. */
  sent?: SentUpload | undefined;
}

const WAIT: StoredAction = { action: 'wait', retryAfterMs: WAIT_RETRY_MS };

export function readFlow(order: Order): FlowState {
  const raw = order.nextAction as Partial<FlowState> | null;
  return {
    next: raw?.next ?? WAIT,
    answered: Array.isArray(raw?.answered) ? raw.answered : [],
    challengeWindowSize: raw?.challengeWindowSize,
    sent: readSentUpload(raw?.sent),
  };
}

export function writeFlow(flow: FlowState): JsonObject {
  // Absent, not null: an undefined field must not linger in the stored jsonb.
  const stored: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(flow)) {
    if (value !== undefined) stored[name] = value;
  }
  return stored as JsonObject;
}

export function fingerprint(value: string): string {
  return createHash('sha256').update(value).digest('base64url').slice(0, 22);
}

/** The challenge the action shows, as a fingerprint (undefined for other actions). */
export function challengeKey(action: StoredAction): string | undefined {
  if (action.action === 'challenge') return fingerprint(action.creq);
  if (action.action === '3ds1') return fingerprint(action.paReq);
  return undefined;
}

export function sameAction(a: StoredAction, b: StoredAction): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export { WAIT };
