/**
 * The payment links' request and response shapes. What a link passes on to each visit's checkout
 * session (description, customer, return URL, metadata, intent) is the session's own schema, so a
 * link takes exactly what a session takes.
 */
import { z } from 'zod';
import { languageOf } from '../../../../../contract/languages.js';
import { isCardLikeId } from '../../../card-number.js';
import { DEFAULT_LINK_DAYS, MAX_LINK_DAYS } from '../../payment-links/links.js';
import { neverGroupsWhole } from './customer-rules.js';
import {
  Amount,
  amountAboveZero,
  amountFitsCurrency,
  CreateSessionBody,
  Currency,
  PAGE,
} from './schemas.js';

const session = CreateSessionBody.shape;
const DAY_MS = 86_400_000;

export const PAYMENT_LINK_PARAM = {
  paymentLinkId: 'The payment link id (`id` of its creation, `plink_` and 22 characters).',
};

export const CreatePaymentLinkBody = z
  .object({
    amount: Amount,
    currency: Currency,
    description: session.description,
    orderId: z
      .string()
      .regex(/^[A-Za-z0-9._:-]{1,100}$/, 'must be 1-100 letters, digits or . _ : -')
      .refine((id) => !isCardLikeId(id), 'must not be a card number')
      .optional()
      .meta({
        description:
          "A prefix of the orders the link makes: each visit of its page is an order of its own, `<orderId>-1`, `<orderId>-2`, ... (one a visit, paid or not). A random `pl-…` prefix when not given. A visit's number whose id is held already (you used it elsewhere) is skipped.",
      }),
    intent: session.intent,
    customer: session.customer.meta({
      description:
        "What you know of the customer (any part, or none), passed to each visit's checkout session as a session's `customer`: the element asks the shopper for the rest.",
    }),
    collect: session.collect,
    countryHint: session.countryHint,
    locale: z
      .string()
      .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, 'must be a language tag, e.g. "de" or "pt-BR"')
      .refine((tag) => languageOf(tag) !== undefined, 'is not a language the checkout speaks')
      .optional()
      .meta({
        description:
          "The page's and the element's language; by default the shopper's browser's (Accept-Language).",
      }),
    expiresAt: z.iso
      .datetime({ offset: true, error: 'must be an ISO 8601 date-time' })
      .optional()
      .meta({
        description: `When the link stops taking payments: in the future, at most ${MAX_LINK_DAYS} days from now; ${DEFAULT_LINK_DAYS} days by default. Then \`expired\` (webhook \`payment_link.expired\`).`,
      }),
    reusable: z.boolean().default(false).meta({
      description:
        'False (default): one payment, however many visits or tabs (a second approval is reversed in full). True: each payment an order of its own, up to `maxPayments`.',
    }),
    maxPayments: z.number().int().min(1).max(100_000).optional().meta({
      description:
        'A reusable link takes this many payments, then reads `paid` (webhook `payment_link.paid`); no cap when not given.',
    }),
    returnUrl: session.returnUrl.meta({
      description: 'Where the page sends the shopper after the payment (a "Continue" link).',
    }),
    metadata: session.metadata.meta({
      description:
        "Free key/value strings kept with the link and passed to each visit's session (with `paymentLinkId`), so order events name the link.",
    }),
  })
  .strict()
  .superRefine(amountFitsCurrency)
  .superRefine(amountAboveZero)
  .superRefine(neverGroupsWhole)
  .superRefine((value, ctx) => {
    if (value.maxPayments !== undefined && !value.reusable) {
      ctx.addIssue({
        code: 'custom',
        path: ['maxPayments'],
        message: 'is for a reusable link only (`reusable: true`); a one-off link takes one',
      });
    }
    if (value.expiresAt !== undefined) {
      const at = Date.parse(value.expiresAt);
      if (at <= Date.now())
        ctx.addIssue({ code: 'custom', path: ['expiresAt'], message: 'must be in the future' });
      else if (at > Date.now() + MAX_LINK_DAYS * DAY_MS)
        ctx.addIssue({
          code: 'custom',
          path: ['expiresAt'],
          message: `must be at most ${MAX_LINK_DAYS} days from now`,
        });
    }
  });

export const ListPaymentLinksQuery = z.object({ ...PAGE }).strict();

export const PaymentLinkView = z.object({
  id: z.string(),
  url: z.string().meta({ description: "The link's page: send it to the shopper." }),
  livemode: z.boolean(),
  state: z.enum(['active', 'paid', 'expired', 'deactivated']).meta({
    description:
      '`active` takes payments; `paid` took its last one; `expired` and `deactivated` take none.',
  }),
  amount: z.string(),
  currency: z.string(),
  intent: z.enum(['sale', 'preauth']),
  description: z.string(),
  orderIdPrefix: z.string(),
  customer: z.record(z.string(), z.unknown()),
  collect: z.record(z.string(), z.unknown()).nullable(),
  countryHint: z.string().nullable(),
  locale: z.string().nullable(),
  returnUrl: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  reusable: z.boolean(),
  maxPayments: z.number().int().nullable().meta({ description: 'null: no cap.' }),
  paymentCount: z.number().int(),
  payments: z
    .array(z.object({ orderId: z.string(), sessionId: z.string(), createdAt: z.string() }))
    .meta({
      description:
        'The payments the link kept, oldest first: each an order of its own (`GET /v1/orders/{orderId}`).',
    }),
  expiresAt: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const PaymentLinkAnswer = PaymentLinkView.extend({
  qrCode: z.string().meta({ description: "The link's `url` as a QR code, an SVG document." }),
});

export const PaymentLinkList = z.object({
  paymentLinks: z.array(PaymentLinkView),
  nextCursor: z.string().nullable(),
});
