/**
 * The amount rules of schemas.ts (`amountFitsCurrency`, `amountAboveZero`) in JSON Schema words,
 * for the OpenAPI document: zod cannot derive them from a refinement, and without them the
 * document calls `"0.00"` or `"7.647"` EUR valid while the server answers 400.
 *
 * An amount has at most as many decimals as its currency (JPY none, EUR two, KWD three) and is a
 * whole number of cents, since the gateway's control signs amount × 100: a third decimal is 0.
 */
import { knownCurrencies } from '../../../signing/index.js';

/** At most two decimals, or three whose last is 0; never zero. */
export const AMOUNT_JSON = {
  pattern: '^\\d{1,10}(\\.\\d{1,2}0?)?$',
  not: { pattern: '^[0.]+$' },
};

/** A known currency: the same list `isKnownCurrency` checks. */
export const CURRENCY_JSON = { enum: knownCurrencies() };

/** A body's `amount` as its `currency` allows it: `allOf` of one `if`/`then` per exponent. */
export const AMOUNT_FITS_CURRENCY = [
  { exponent: 0, pattern: '^\\d{1,10}$' },
  { exponent: 2, pattern: '^\\d{1,10}(\\.\\d{1,2})?$' },
].map(({ exponent, pattern }) => ({
  if: {
    properties: { currency: { enum: knownCurrencies(exponent) } },
    required: ['currency'],
  },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's own keyword.
  then: { properties: { amount: { pattern } } },
}));
