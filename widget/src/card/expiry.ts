/** Expiry date parsing and checks. `now` is passed in so tests (and fake clocks) decide "today". */

export interface Expiry {
  /** "01".."12" */
  month: string;
  /** Four digits, e.g. "2030". */
  year: string;
}

export type ExpiryProblem = 'required' | 'invalid' | 'past';

/** Cards are not issued for longer than this; a year further out is a typo. */
const MAX_YEARS_AHEAD = 20;

/** Reads "MM/YY" (as formatted by formatExpiry) into month and four-digit year. */
export function parseExpiry(value: string): Expiry | undefined {
  const m = /^(\d{2})\s*\/\s*(\d{2})$/.exec(value.trim());
  if (!m) return undefined;
  const month = Number(m[1]);
  if (month < 1 || month > 12) return undefined;
  return { month: m[1]!, year: `20${m[2]}` };
}

/** Why an expiry value cannot be used, or undefined when it can. A card is valid through its month. */
export function expiryProblem(value: string, now: Date): ExpiryProblem | undefined {
  if (value.trim() === '') return 'required';
  const exp = parseExpiry(value);
  if (!exp) return 'invalid';
  const y = Number(exp.year);
  const m = Number(exp.month);
  const nowY = now.getFullYear();
  const nowM = now.getMonth() + 1;
  if (y < nowY || (y === nowY && m < nowM)) return 'past';
  if (y > nowY + MAX_YEARS_AHEAD) return 'invalid';
  return undefined;
}
