/**
 * The form body of a gateway call: parsed in order (OAuth signs the exact pairs), then read
 * through typed accessors that refuse a missing or malformed field with a 400 naming it.
 * Values are trimmed, as the gateway does ("leading and trailing whitespace ... omitted").
 */

import { luhnValid } from '../../../../contract/card/luhn.js';
import { type Param, toControlCents, toMinorUnits } from '../../signing/index.js';
import { invalidField, missingField } from './errors.js';

export function parseForm(text: string): Param[] {
  return [...new URLSearchParams(text)];
}

export class Fields {
  private readonly values = new Map<string, string>();

  constructor(raw: readonly Param[]) {
    for (const [name, value] of raw) {
      if (name.startsWith('oauth_')) continue;
      if (this.values.has(name)) throw invalidField(name, 'appears more than once');
      this.values.set(name, value.trim());
    }
  }

  /** The value, or undefined when absent or empty. */
  get(name: string): string | undefined {
    const value = this.values.get(name);
    return value === undefined || value === '' ? undefined : value;
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  required(name: string, rule?: Rule): string {
    const value = this.get(name);
    if (value === undefined) throw missingField(name);
    if (rule) check(name, value, rule);
    return value;
  }

  optional(name: string, rule?: Rule): string | undefined {
    const value = this.get(name);
    if (value !== undefined && rule) check(name, value, rule);
    return value;
  }

  /** Refuses a field that must not be sent, even empty (void takes no amount). */
  forbid(name: string, why: string): void {
    if (this.values.has(name)) throw invalidField(name, why);
  }
}

export interface Rule {
  test: (value: string) => boolean;
  what: string;
}

function check(name: string, value: string, rule: Rule): void {
  if (!rule.test(value)) throw invalidField(name, `must be ${rule.what}`);
}

const pattern = (re: RegExp, what: string): Rule => ({ test: (v) => re.test(v), what });

/** The control characters a text rule may allow, by the name its message gives them. */
const ALLOWED_CONTROLS: Record<string, string> = { '\t': 'tab', '\n': 'LF', '\r': 'CR' };

/**
 * Text of 1..`max` characters with no control characters but those in `allow` (`'\t'`, or
 * `'\t\n\r'` for free text such as a description). `length` says the bounds in the message.
 */
export function textRule(max: number, length: string, allow = ''): Rule {
  const but = [...allow].map((c) => ALLOWED_CONTROLS[c]).join(', ');
  return {
    test: (v) => {
      if (v.length < 1 || v.length > max) return false;
      for (let i = 0; i < v.length; i++) {
        const code = v.charCodeAt(i);
        if ((code < 0x20 && !allow.includes(v.charAt(i))) || code === 0x7f) return false;
      }
      return true;
    },
    what: `${length}, no control characters${but ? ` but ${but}` : ''}`,
  };
}

export const RULES = {
  id: pattern(/^[!-~]{1,128}$/, '1 to 128 printable characters'),
  orderid: pattern(/^\d{1,20}$/, 'a numeric order id'),
  currency: pattern(/^[A-Z]{3}$/, 'a three-letter ISO 4217 code'),
  email: pattern(/^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{1,63}$/, 'an e-mail address'),
  url: {
    test: (v: string) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'http:' || u.protocol === 'https:') && v.length <= 2048;
      } catch {
        return false;
      }
    },
    what: 'an absolute http(s) URL',
  } satisfies Rule,
  pan: {
    test: (value: string) => /^\d{12,19}$/.test(value) && luhnValid(value),
    what: 'a Luhn-valid card number of 12 to 19 digits',
  } satisfies Rule,
  cvv: pattern(/^\d{3,4}$/, '3 or 4 digits'),
  month: pattern(/^(0?[1-9]|1[0-2])$/, 'a month 1 to 12'),
  year: pattern(/^(\d{2}|20\d{2})$/, 'a year (YY or YYYY)'),
  name: textRule(128, '1 to 128 characters'),
  /**
   * `order_desc` and `comment`: 64k of free text (the family's php-lib SaleQuery;
   * docs/gateway.md#request-fields).
   */
  description: textRule(65535, '1 to 65535 characters', '\t\n\r'),
  country: pattern(/^[A-Z]{2}$/, 'a two-letter ISO 3166 country code'),
  phone: pattern(/^\+?[0-9 ()-]{5,20}$/, 'a phone number'),
  ip: pattern(/^((\d{1,3}\.){3}\d{1,3}|[0-9a-fA-F:.]{2,45})$/, 'an IPv4 or IPv6 address'),
} as const;

/**
 * `amount`: decimal major units, checked against the currency's decimals and refused when it is
 * not a whole number of cents (a control carries it × 100: KWD 1.234 has no control value);
 * minor units out.
 */
export function amountMinor(fields: Fields, currency: string): number {
  const value = fields.required('amount');
  let minor: number;
  try {
    minor = toMinorUnits(value, currency);
    toControlCents(value);
  } catch (error) {
    throw invalidField('amount', (error as Error).message);
  }
  if (minor === 0) throw invalidField('amount', 'must be greater than zero');
  return minor;
}

export function fourDigitYear(year: string): string {
  return year.length === 2 ? `20${year}` : year;
}

export function twoDigitMonth(month: string): string {
  return month.padStart(2, '0');
}
