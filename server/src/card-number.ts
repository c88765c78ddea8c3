/**
 * Facts of a card number, shared by the backend, the store and the sandbox: its brand from the
 * leading digits, as the gateway names brands (`VISA`, ...), its Luhn check digit, and what of it
 * may be shown. The brand table and the Luhn check are the contract's, shared with the widget.
 */
import { BRANDS, type Brand, type BrandId, detectBrand } from '../../contract/card/brands.js';
import { luhnValid } from '../../contract/card/luhn.js';

/** The brands the gateway names, by the contract's brand ids; the others are `UNKNOWN` to it. */
const GATEWAY_BRANDS: Partial<Record<BrandId, string>> = {
  visa: 'VISA',
  mir: 'MIR',
  mastercard: 'MASTERCARD',
  amex: 'AMEX',
  discover: 'DISCOVER',
  jcb: 'JCB',
};

/** The brand as the gateway names it, from the contract's brand table. */
export function brandOf(pan: string): string {
  const brand = detectBrand(pan);
  return (brand && GATEWAY_BRANDS[brand.id]) ?? 'UNKNOWN';
}

/**
 * The other way: our brand for a name the gateway gives one (`card-type`, get-card-info's brand),
 * by the contract's id or display name in any case (`VISA`, `AMEX`, `AMERICAN EXPRESS`,
 * `DINERS CLUB`), if we know it.
 */
export function brandNamed(gatewayName: string): Brand | undefined {
  const name = gatewayName.toUpperCase();
  return BRANDS.find((b) => b.id.toUpperCase() === name || b.name.toUpperCase() === name);
}

/**
 * The card number as it may be shown: PCI DSS allows at most the first six and last four digits.
 * We also keep at least six digits hidden, so a short number shows fewer leading digits (15: 5 + 4,
 * 13: 3 + 4, 12: 2 + 4). Six unknown digits with the Luhn check still fit 100,000 numbers; a
 * 12-digit number shown as six + four would leave about ten candidates.
 */
export function maskPan(digits: string): string {
  const lead = Math.max(0, Math.min(6, digits.length - 4 - 6));
  return `${digits.slice(0, lead)}${'*'.repeat(digits.length - lead - 4)}${digits.slice(-4)}`;
}

/**
 * Whether text holds a card number: a run of digits, however a person might group them (spaces,
 * dashes, dots, slashes, line breaks), that passes Luhn and has a card brand's prefix and one of
 * its lengths (the contract's table). Stricter than the scrubbers' pattern (sensitive-fields.ts),
 * which masks, where this refuses: a millisecond timestamp or a long order number in a return
 * URL (13 digits starting with 1, Luhn-valid one time in ten) is not taken for a card.
 */
export function holdsCardNumber(text: string): boolean {
  return digitRuns(text).some((digits) => {
    const brand = detectBrand(digits);
    return brand?.lengths.includes(digits.length) && luhnValid(digits);
  });
}

/**
 * Whether text holds a run of 12 to 19 digits (grouped as holdsCardNumber reads them) that
 * passes Luhn, whatever its brand: what the card forms and the gateway take as a card number.
 * Broader than holdsCardNumber: for what is shown back only (a 400's message), never stored.
 */
export function holdsCardLikeNumber(text: string): boolean {
  return digitRuns(text).some((d) => d.length >= 12 && d.length <= 19 && luhnValid(d));
}

/**
 * Whether an identifier is itself a card-like number: 12 to 19 digits and nothing else, passing
 * Luhn (`1234000000000006`), or one holding a known brand's card number.
 */
export function isCardLikeId(id: string): boolean {
  return (/^\d{12,19}$/.test(id) && luhnValid(id)) || holdsCardNumber(id);
}

/** The runs of digits of `text`, however grouped (spaces, dashes, dots, slashes, line breaks). */
function digitRuns(text: string): string[] {
  return (text.match(/\d(?:[ .\-/\t\r\n]*\d)*/g) ?? []).map((run) => run.replace(/\D/g, ''));
}
