/**
 * Card brands as data. Detection walks the table in order and takes the first prefix that
 * matches, so narrow ranges (Mir's 2200-2204, Diners' 36) come before broad ones (Maestro's 5x/6x).
 */
export type BrandId =
  | 'visa'
  | 'mastercard'
  | 'maestro'
  | 'amex'
  | 'discover'
  | 'jcb'
  | 'unionpay'
  | 'diners'
  | 'mir';

export interface Brand {
  id: BrandId;
  /** Display name (brand names are not translated). */
  name: string;
  /** Matches the leading digits of a number of this brand. */
  prefix: RegExp;
  /** Allowed full lengths, ascending. */
  lengths: readonly number[];
  /** Security code length. */
  cvc: number;
  /** Positions (digit counts) after which a space is shown. */
  gaps: readonly number[];
  /** UnionPay issues numbers that fail Luhn, so the check is per brand. */
  luhn: boolean;
}

const range = (from: number, to: number): number[] =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

const FOUR = [4, 8, 12, 16] as const;

export const BRANDS: readonly Brand[] = [
  {
    id: 'amex',
    name: 'American Express',
    prefix: /^3[47]/,
    lengths: [15],
    cvc: 4,
    gaps: [4, 10],
    luhn: true,
  },
  {
    id: 'diners',
    name: 'Diners Club',
    prefix: /^3(?:0[0-5]|095|[689])/,
    lengths: [14, 16, 19],
    cvc: 3,
    gaps: [4, 10],
    luhn: true,
  },
  {
    id: 'jcb',
    name: 'JCB',
    prefix: /^35(?:2[89]|[3-8])/,
    lengths: range(16, 19),
    cvc: 3,
    gaps: FOUR,
    luhn: true,
  },
  {
    id: 'mir',
    name: 'Mir',
    prefix: /^220[0-4]/,
    lengths: range(16, 19),
    cvc: 3,
    gaps: FOUR,
    luhn: true,
  },
  {
    id: 'mastercard',
    name: 'Mastercard',
    prefix: /^(?:5[1-5]|222[1-9]|22[3-9]|2[3-6]|27[01]|2720)/,
    lengths: [16],
    cvc: 3,
    gaps: FOUR,
    luhn: true,
  },
  { id: 'visa', name: 'Visa', prefix: /^4/, lengths: [13, 16, 19], cvc: 3, gaps: FOUR, luhn: true },
  {
    id: 'discover',
    name: 'Discover',
    prefix: /^(?:6011|64[4-9]|65)/,
    lengths: range(16, 19),
    cvc: 3,
    gaps: FOUR,
    luhn: true,
  },
  {
    id: 'unionpay',
    name: 'UnionPay',
    prefix: /^(?:62|81)/,
    lengths: range(14, 19),
    cvc: 3,
    gaps: FOUR,
    luhn: false,
  },
  {
    id: 'maestro',
    name: 'Maestro',
    prefix: /^(?:5[06-9]|6)/,
    lengths: range(12, 19),
    cvc: 3,
    gaps: FOUR,
    luhn: true,
  },
];

/** The brand of a (possibly partial) digit string, or undefined while it cannot be told. */
export function detectBrand(digits: string): Brand | undefined {
  return BRANDS.find((b) => b.prefix.test(digits));
}

/** Longest number we accept: the brand's longest, or 19 (the ISO/IEC 7812 maximum). */
export function maxDigits(brand: Brand | undefined): number {
  return brand ? brand.lengths[brand.lengths.length - 1]! : 19;
}

export function cvcLength(brand: Brand | undefined): number {
  return brand?.cvc ?? 3;
}
