/**
 * What a shopper is told when their bank declines: the gateway's error code (the card networks'
 * ISO 8583 response codes) to a reason the element has words for (`decline.<reason>`). Codes that
 * point at fraud (lost, stolen, pick up) or that say nothing a shopper can act on have none, and
 * the element says the plain "declined" words.
 */
import type { DeclineReason } from '../../../../contract/api-types.js';

const CODES: Record<DeclineReason, readonly string[]> = {
  funds: ['51'],
  expired: ['33', '54'],
  'not-permitted': ['57', '58', '62'],
  limit: ['61', '65'],
  cvc: ['N7', '82'],
  'try-later': ['19', '91', '96'],
};

const BY_CODE = new Map(
  Object.entries(CODES).flatMap(([reason, codes]) =>
    codes.map((code) => [code, reason as DeclineReason] as const),
  ),
);

export function declineReason(errorCode: string | null | undefined): DeclineReason | undefined {
  return errorCode ? BY_CODE.get(errorCode) : undefined;
}
