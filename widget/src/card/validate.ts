/** Whole-form validation of the card fields, returning one problem per field. */
import { type Brand, detectBrand } from '../../../contract/card/brands.js';
import { luhnValid } from '../../../contract/card/luhn.js';
import { expiryProblem } from './expiry.js';
import { digitsOnly } from './format.js';

export type CardField = 'number' | 'expiry' | 'cvc' | 'name';

/** Field order: also the order in which focus goes to the first invalid field. */
export const CARD_FIELDS: readonly CardField[] = ['number', 'expiry', 'cvc', 'name'];

export type FieldProblem = 'required' | 'invalid' | 'past';

export interface CardValues {
  number: string;
  expiry: string;
  cvc: string;
  name: string;
}

export function numberProblem(value: string): FieldProblem | undefined {
  const digits = digitsOnly(value);
  if (!digits) return 'required';
  const brand = detectBrand(digits);
  const lengthOk = brand
    ? brand.lengths.includes(digits.length)
    : digits.length >= 12 && digits.length <= 19;
  if (!lengthOk) return 'invalid';
  if ((brand?.luhn ?? true) && !luhnValid(digits)) return 'invalid';
  return undefined;
}

/**
 * The security code's length is its card brand's (4 for Amex, else 3), either while the brand is
 * unknown. `optional`: a saved card the session lets pay without one.
 */
export function cvcProblem(
  cvc: string,
  brand: Brand | undefined,
  optional = false,
): FieldProblem | undefined {
  if (!cvc) return optional ? undefined : 'required';
  const ok = brand ? cvc.length === brand.cvc : cvc.length === 3 || cvc.length === 4;
  return /^\d+$/.test(cvc) && ok ? undefined : 'invalid';
}

export function nameProblem(name: string): FieldProblem | undefined {
  const n = name.trim();
  if (!n) return 'required';
  return n.length < 2 || n.length > 64 ? 'invalid' : undefined;
}

export function validateCard(v: CardValues, now: Date): Partial<Record<CardField, FieldProblem>> {
  const out: Partial<Record<CardField, FieldProblem>> = {};
  const problems: [CardField, FieldProblem | undefined][] = [
    ['number', numberProblem(v.number)],
    ['expiry', expiryProblem(v.expiry, now)],
    ['cvc', cvcProblem(v.cvc, detectBrand(digitsOnly(v.number)))],
    ['name', nameProblem(v.name)],
  ];
  for (const [field, problem] of problems) if (problem) out[field] = problem;
  return out;
}
