/**
 * The 3-D Secure progress we keep on the order (its `next_action` jsonb): the action the widget
 * must take now, plus what the browser already did so a stale gateway answer cannot send the
 * shopper through the same step twice. Stored, not held in memory, so any instance (or this one
 * after a restart) can carry on.
 */
import { createHash } from 'node:crypto';
import type { ChallengeWindowSize } from '../../../../contract/api-types.js';
import type { JsonObject, Order } from '../../store/index.js';
import { readSentUpload, type SentUpload } from '../three-ds/sent-upload.js';
import { type StoredAction, WAIT_RETRY_MS } from './next-action.js';

/** The bank pages a payment showed the shopper (the 3-D Secure path the metrics count). */
export type ThreeDsStep = 'challenge' | '3ds1' | 'gateway-page';

const STEP_OF: Partial<Record<StoredAction['action'], ThreeDsStep>> = {
  challenge: 'challenge',
  '3ds1': '3ds1',
  html: 'gateway-page',
  redirect: 'gateway-page',
};

export interface FlowState {
  next: StoredAction;
  /** Fingerprints of the challenges (creq / PaReq) whose answer was uploaded. */
  answered: string[];
  /** The window size the widget asked for when paying. */
  challengeWindowSize?: ChallengeWindowSize | undefined;
  /** A 3DS upload sent whose outcome is not known yet (sent-upload.ts); the status decides. */
  sent?: SentUpload | undefined;
  /** The gateway page the sale answer named (next-action.ts, salePageOf). */
  salePage?: StoredAction | undefined;
  /** The Accept header of the shopper's browser, from a real page load (checkout/launcher). */
  navigationAccept?: string | undefined;
  /** Every bank page its next actions named, in order (writeFlow adds them). */
  shown?: ThreeDsStep[] | undefined;
}

const WAIT: StoredAction = { action: 'wait', retryAfterMs: WAIT_RETRY_MS };

export function readFlow(order: Order): FlowState {
  const raw = order.nextAction as Partial<FlowState> | null;
  return {
    next: raw?.next ?? WAIT,
    answered: Array.isArray(raw?.answered) ? raw.answered : [],
    challengeWindowSize: raw?.challengeWindowSize,
    sent: readSentUpload(raw?.sent),
    salePage: raw?.salePage,
    navigationAccept: typeof raw?.navigationAccept === 'string' ? raw.navigationAccept : undefined,
    shown: Array.isArray(raw?.shown) ? raw.shown : undefined,
  };
}

/** The next actions that show the shopper a bank page (the 3DS Method's hidden one included). */
const BANK_PAGE_ACTIONS: readonly StoredAction['action'][] = [
  'method',
  'challenge',
  '3ds1',
  'html',
  'redirect',
];

/**
 * Whether the attempt got as far as a bank page: the gateway took its sale and named a bank step
 * (now, or one shown before). Only then may the shopper leave it (`/widget/cancel`): an attempt
 * still `new` (its sale on the way) or one the gateway works on with no bank step is a charge in
 * flight, and a new attempt beside it would be a second one.
 */
export function bankPageShown(order: Order): boolean {
  if (order.status === 'new') return false;
  const flow = readFlow(order);
  return BANK_PAGE_ACTIONS.includes(flow.next.action) || (flow.shown?.length ?? 0) > 0;
}

export function writeFlow(flow: FlowState): JsonObject {
  const step = STEP_OF[flow.next.action];
  const shown = step && !flow.shown?.includes(step) ? [...(flow.shown ?? []), step] : flow.shown;
  // Absent, not null: an undefined field must not linger in the stored jsonb.
  const stored: Record<string, unknown> = {};
  for (const [name, value] of Object.entries({ ...flow, shown })) {
    if (value !== undefined) stored[name] = value;
  }
  return stored as JsonObject;
}

export function fingerprint(value: string): string {
  return createHash('sha256').update(value).digest('base64url').slice(0, 22);
}

/**
 * The challenge or gateway page the action shows, as a fingerprint (undefined for other actions):
 * once answered (a CRes or PaRes uploaded, the shopper back from the gateway's page) it is never
 * shown again, even while a stale status still names it.
 */
export function challengeKey(action: StoredAction): string | undefined {
  if (action.action === 'challenge') return fingerprint(action.creq);
  if (action.action === '3ds1') return fingerprint(action.paReq);
  if (action.action === 'redirect') return fingerprint(`redirect ${action.url}`);
  if (action.action === 'html') return fingerprint(`html ${action.html}`);
  return undefined;
}

/** JSON with object keys sorted: the store's jsonb gives them back in an order of its own. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** The same step, however its stored copy orders its fields (so a repeated status writes nothing). */
export function sameAction(a: StoredAction, b: StoredAction): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

export { WAIT };
