/**
 * A 3DS upload whose outcome is unknown: we claimed it (and may have sent it: see leaseUntil), but the answer was lost (timeout, broken
 * connection, dropped answer, 5xx). Like a sale whose answer was lost, it may or may not have
 * happened, so the browser step is over (its result is in our hands, the browser is never asked
 * again) and the gateway's status decides: once the status has moved past the step the gateway
 * got it; while the status still asks for that very upload after a grace period, it did not, and
 * we send the same upload again. The gateway refuses an upload for a step it is no longer in, so
 * even a resend that races a late original is applied once.
 *
 * What we resend is kept on the order (inside its flow state) until the outcome is known, so any
 * instance can carry on. It holds browser fields and the ACS's answer, never card data.
 */
import type { StatusFields } from '../following/next-action.js';

/** How long a sent upload may still be in flight at the gateway before a resend is considered. */
export const UPLOAD_RESEND_AFTER_MS = 2_000;
/** Sends in all (the first included); after that the order waits on the gateway's own expiry. */
export const UPLOAD_MAX_SENDS = 3;

/** The method-result upload as sent, without the ids (those are on the order). */
export interface MethodUploadFields {
  threeDSServerTransID: string;
  browserAcceptHeader: string;
  browserIP: string;
  browserJavaEnabled: boolean;
  browserJavascriptEnabled: boolean;
  browserLanguage: string;
  browserColorDepth: number;
  browserScreenHeight: number;
  browserScreenWidth: number;
  browserTZ: number;
  browserUserAgent: string;
  challengeWindowSize: '01' | '02' | '03' | '04' | '05';
  threeDSCompInd: 'Y' | 'N' | 'U';
}

export type UploadPayload =
  | { kind: 'method'; fields: MethodUploadFields }
  /** `key`: the fingerprint of the challenge (creq or PaReq) this answers. */
  | { kind: 'cres'; key: string; cres: string }
  | { kind: 'pares'; key: string; paRes: string; md?: string | undefined };

export type SentUpload = UploadPayload & {
  /** When it was last sent, or claimed to be sent (ms since epoch). */
  sentAt: number;
  /** How many times it was sent (or claimed to be). */
  sends: number;
  /**
   * Written ahead, with the claim, before the upload leaves (ms since epoch): until then the
   * claiming instance may still be sending it, so nobody else does. Past it with the record still
   * there, that instance died between its claim and the gateway's answer (or lost the answer and
   * died before noting so), and the upload counts as sent with its answer lost: the status decides
   * whether it is sent again. Absent once an answer was lost and noted (recordSent).
   */
  leaseUntil?: number;
};

/** Reads a stored SentUpload back; anything unrecognisable counts as none. */
export function readSentUpload(raw: unknown): SentUpload | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const s = raw as Partial<SentUpload>;
  if (typeof s.sentAt !== 'number' || typeof s.sends !== 'number') return undefined;
  if (s.kind === 'method' && s.fields && typeof s.fields === 'object') return s as SentUpload;
  if (s.kind === 'cres' && typeof s.key === 'string' && typeof s.cres === 'string') {
    return s as SentUpload;
  }
  if (s.kind === 'pares' && typeof s.key === 'string' && typeof s.paRes === 'string') {
    return s as SentUpload;
  }
  return undefined;
}

/**
 * Whether a status response still asks for this very upload, i.e. the gateway never got it.
 * `mappedKey`: the fingerprint of the challenge the status shows (undefined when it shows none).
 */
export function gatewayStillAwaits(
  sent: SentUpload,
  fields: StatusFields,
  mappedKey: string | undefined,
): boolean {
  if (fields.status !== 'processing') return false;
  if (sent.kind === 'method') {
    // The status names the 3DS transaction but no challenge yet: it waits for the method result.
    return (
      fields.threeDsServerTransId === sent.fields.threeDSServerTransID &&
      !fields.acsUrl &&
      !fields.creq &&
      !fields.pareq
    );
  }
  return mappedKey === sent.key;
}

export function resendDue(sent: SentUpload, now: number): boolean {
  return (
    sent.sends < UPLOAD_MAX_SENDS &&
    now - sent.sentAt >= UPLOAD_RESEND_AFTER_MS &&
    now >= (sent.leaseUntil ?? 0)
  );
}
