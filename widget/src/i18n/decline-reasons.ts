/**
 * What a shopper is told when their bank declines: the gateway's error code (the card networks'
 * ISO 8583 response codes) to the words for it. Codes that point at fraud (lost, stolen, pick up)
 * or that say nothing a shopper can act on get the plain "declined" words.
 */
import type { StringKey } from './en.js';

/** `decline.<reason>`: the codes that give it, space-separated (shorter in the CDN file). */
const REASONS: Record<string, string> = {
  funds: '51',
  expired: '33 54',
  'not-permitted': '57 58 62',
  limit: '61 65',
  cvc: 'N7 82',
  'try-later': '19 91 96',
};

export function declineReason(errorCode: string | undefined): StringKey {
  const reason = Object.keys(REASONS).find((r) => REASONS[r]!.split(' ').includes(errorCode!));
  return reason ? (`decline.${reason}` as StringKey) : 'declinedDetail';
}
