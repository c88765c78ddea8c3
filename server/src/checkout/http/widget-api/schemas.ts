/**
 * Validation of what the widget sends (contract/api-types.ts). Messages name the field and never echo the
 * value: a card number must not come back in an error.
 */
import { z } from 'zod';
import type { CardPayRequest, SavedCardPayRequest } from '../../../../../contract/api-types.js';
import { luhnValid } from '../../../../../contract/card/luhn.js';
import { isOneLine, ONE_LINE } from '../../control-characters.js';
import { ShopperSchema } from '../../customer/shopper.js';
import { parseOr400 } from '../../errors.js';
import type { Accepted } from '../../payments/pay.js';
import { emvColorDepth } from './emv-color-depth.js';
import { emvLanguage } from './emv-language.js';

export const BrowserInfoSchema = z
  .object({
    // As the screen reports it (30-bit panels say 30): rounded down onto the EMV set, never refused.
    colorDepth: z.number().transform(emvColorDepth),
    // Absent from the element's own requests: it runs, and no browser runs Java any more.
    javaEnabled: z.boolean().default(false),
    javascriptEnabled: z.literal(true).default(true),
    // Odd but real values (`en_US`, `zh-Hant-TW-x-private`) are normalised, never refused.
    language: z.string().transform(emvLanguage),
    screenHeight: z.number().int().min(0).max(999999),
    screenWidth: z.number().int().min(0).max(999999),
    timezoneOffset: z.number().int().min(-840).max(840),
    challengeWindowSize: z.enum(['01', '02', '03', '04', '05']),
  })
  .strict();

export const CardInputSchema = z
  .object({
    number: z
      .string()
      .regex(/^\d{12,19}$/, 'must be 12 to 19 digits')
      .refine(luhnValid, 'is not a valid card number'),
    expMonth: z.string().regex(/^(0[1-9]|1[0-2])$/, 'must be 01 to 12'),
    expYear: z.string().regex(/^20\d{2}$/, 'must be a four-digit year'),
    cvc: z.string().regex(/^\d{3,4}$/, 'must be 3 or 4 digits'),
    holder: z
      .string()
      .trim()
      .min(1, 'is required')
      .max(128, 'must be at most 128 characters')
      .refine(isOneLine, ONE_LINE),
  })
  .strict()
  .superRefine((card, ctx) => {
    const now = new Date();
    const year = Number(card.expYear);
    const month = Number(card.expMonth);
    if (
      year < now.getUTCFullYear() ||
      (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1)
    ) {
      ctx.addIssue({ code: 'custom', path: ['expYear'], message: 'the card has expired' });
    }
  });

export const PayRequestSchema = z
  .object({
    card: CardInputSchema,
    browser: BrowserInfoSchema,
    saveCard: z.boolean().optional(),
    shopper: ShopperSchema.optional(),
  })
  .strict();

export const SavedCardPayRequestSchema = z
  .object({
    // Any other string is simply no handle of the session (saved-card-charge.ts).
    savedCard: z.string().min(1, 'is required').max(128, 'must be at most 128 characters'),
    cvc: z
      .string()
      .regex(/^\d{3,4}$/, 'must be 3 or 4 digits')
      .optional(),
    browser: BrowserInfoSchema,
    shopper: ShopperSchema.optional(),
  })
  .strict();

/** `POST /widget/hosted`: the shopper's contact and address, when the session asks for them. */
export const HostedPayRequestSchema = z.object({ shopper: ShopperSchema.optional() }).strict();

/** A pay body: a saved card's when it names `savedCard`, a typed card's otherwise. */
export function parsePayRequest(
  body: unknown,
): Accepted<CardPayRequest> | Accepted<SavedCardPayRequest> {
  const saved = typeof body === 'object' && body !== null && 'savedCard' in body;
  return saved ? parseOr400(SavedCardPayRequestSchema, body) : parseOr400(PayRequestSchema, body);
}

export const MethodResultSchema = z
  .object({ threeDSCompInd: z.enum(['Y', 'N', 'U']), browser: BrowserInfoSchema })
  .strict();

export const CancelSchema = z
  .object({ reason: z.enum(['challenge-cancelled', 'shopper-left']) })
  .strict();

export const NextQuerySchema = z
  .object({
    wait: z.coerce.number().min(0, 'must be 0 to 25').max(25, 'must be 0 to 25').default(0),
    // The step the widget is showing: hold while it is still the next one (followOrder).
    showing: z
      .enum(['method', 'challenge', '3ds1', 'html', 'redirect'], {
        error: 'must be method, challenge, 3ds1, html or redirect',
      })
      .optional(),
  })
  .strict();
