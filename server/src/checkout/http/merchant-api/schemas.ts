/**
 * Every merchant API request and response shape, as zod schemas. The routers validate with these
 * and openapi.ts converts the very same objects with `z.toJSONSchema`, so the published document
 * cannot drift from what the server accepts.
 */
import { z } from 'zod';
import { luhnValid } from '../../../../../contract/card/luhn.js';
import { holdsCardNumber, isCardLikeId } from '../../../card-number.js';
import { isKnownCurrency, toControlCents, toMinorUnits } from '../../../signing/index.js';
import { isListCursor } from '../../../store/index.js';
import { oneLineText } from '../../customer/fields.js';
import { AMOUNT_FITS_CURRENCY, AMOUNT_JSON, CURRENCY_JSON } from './amount-rules.js';
import {
  Collect,
  CountryHint,
  CUSTOMER_FIELDS,
  neverGroupsWhole,
  normaliseCustomer,
} from './customer-rules.js';

// --- building blocks -------------------------------------------------------------------------

export const Amount = z
  .string()
  .regex(/^\d{1,10}(\.\d{1,3})?$/, 'must be a decimal string in major units, e.g. "10.42"')
  .meta({
    description:
      'Decimal string in major units, e.g. "10.42": more than zero, with at most as many decimals as the currency has (JPY none, EUR two, KWD three, the third being 0: the gateway signs whole cents). Where the currency is the order\'s (capture, return), the server checks the decimals against it.',
    examples: ['10.42'],
    ...AMOUNT_JSON,
  });

export const Currency = z
  .string()
  .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code, e.g. "EUR"')
  .refine(isKnownCurrency, 'is not a known ISO 4217 currency')
  .meta({ description: 'A known ISO 4217 alphabetic code.', examples: ['EUR'], ...CURRENCY_JSON });

/**
 * The merchant's order id: the gateway's `client_orderid` (at most 128 characters), claimed in
 * the one namespace of every client_orderid the backend sends (store/client-order-ids.ts).
 */
export const MerchantOrderId = z
  .string()
  .regex(/^[A-Za-z0-9._:-]{1,128}$/, 'must be 1-128 letters, digits or . _ : -')
  .refine(
    (id) => !isCardLikeId(id),
    'must not be a card number (12-19 digits passing the Luhn check): give it a prefix, e.g. ord-',
  )
  .meta({
    description:
      "The merchant's order id, sent to the gateway as client_orderid. Never a card number: an id of 12 to 19 digits only that passes the Luhn check (or holding a card brand's number) is a 400. Checkout sessions and every merchant operation that sends one (rebills, payouts, transfers, account verifications, hosted forms) share one namespace, so an id any of them holds is a 409 `conflict` naming `orderId`. A session's further payment attempts are sent as `<orderId>-2`, `<orderId>-3`, ... and hold those ids too, so pick no id of that shape for anything else.",
  });

/**
 * The 409 of every route whose orderId is claimed in that namespace: one text, so the document
 * says the same of each (the database makes the check, racing requests included).
 */
export const ORDER_ID_TAKEN =
  'orderId already used (field `orderId`): a checkout session, a payment attempt or a merchant operation holds it (the message says which); nothing was created or sent';

/** One line of text (a name, an address line): the gateway refuses any control character in it. */
const text = (max: number) => oneLineText(max);

/**
 * The shopper as the merchant knows them: every field optional (the element asks for what a
 * session lacks: `collect`), checked by the rules the widget API's `shopper` is checked by.
 */
export const Customer = z.object(CUSTOMER_FIELDS).strict().transform(normaliseCustomer);

/** A customer an account verification sends whole: the gateway requires these fields of it. */
const WholeCustomer = z
  .object({
    ...CUSTOMER_FIELDS,
    email: CUSTOMER_FIELDS.email.unwrap(),
    address1: CUSTOMER_FIELDS.address1.unwrap(),
    city: CUSTOMER_FIELDS.city.unwrap(),
    zipCode: CUSTOMER_FIELDS.zipCode.unwrap(),
    country: CUSTOMER_FIELDS.country.unwrap(),
    phone: CUSTOMER_FIELDS.phone.unwrap(),
  })
  .strict()
  .transform(normaliseCustomer);

/**
 * Text that is stored and sent on as it is (a description, a URL, a metadata key): a card number
 * in it would land on disk and in webhooks unmasked, so it is refused (never echoed).
 */
const NO_CARD_NUMBER = 'must not hold a card number';
const noCardNumber = (text: string) => !holdsCardNumber(text);

const Metadata = z
  .record(z.string().max(40).refine(noCardNumber, NO_CARD_NUMBER), z.string().max(500))
  .refine((m) => Object.keys(m).length <= 20, 'must have at most 20 keys')
  .meta({ description: 'Free key/value strings kept with the session and sent back in webhooks.' });

const HttpsOrLocalUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .max(2000)
  .refine(noCardNumber, NO_CARD_NUMBER);

/**
 * Adds an issue on `amount` when it has more decimals than the currency allows, or is not a whole
 * number of cents (the gateway's control carries amount × 100: KWD 1.234 cannot be signed).
 */
export function amountFitsCurrency(
  value: { amount?: string | undefined; currency?: string | undefined },
  ctx: z.RefinementCtx,
) {
  if (!value.amount || !value.currency || !isKnownCurrency(value.currency)) return;
  try {
    toMinorUnits(value.amount, value.currency);
    toControlCents(value.amount);
  } catch (error) {
    ctx.addIssue({ code: 'custom', path: ['amount'], message: (error as Error).message });
  }
}

/**
 * Adds an issue on `amount` when it is zero: the gateway refuses a zero sale, preauth, payout or
 * transfer (`amount: must be greater than zero`) after the session or order is used up. Account
 * verification is the only zero-amount flow, and it takes no amount.
 */
export function amountAboveZero(value: { amount?: string | undefined }, ctx: z.RefinementCtx) {
  if (value.amount !== undefined && /^[0.]+$/.test(value.amount)) {
    ctx.addIssue({ code: 'custom', path: ['amount'], message: 'must be more than zero' });
  }
}

/** A card reference id as the gateway gives it. */
export const CardRefId = z
  .string()
  .regex(/^[!-~]{1,64}$/, 'must be 1-64 printable characters without spaces')
  .meta({ description: "A card reference id (the gateway's card-ref-id)." });

/**
 * A card number a merchant route sends on (a payout's or transfer's destination, a card to
 * verify): refused here when its check digit is wrong, before any gateway call.
 */
const CardNumber = z
  .string()
  .regex(/^\d{12,19}$/, 'must be 12-19 digits')
  .refine(luhnValid, 'is not a valid card number (Luhn check)')
  .meta({ description: '12 to 19 digits passing the Luhn check (checked by the server).' });

/**
 * Adds an issue on `savedCards` where the session could not charge them: a saved card is charged
 * by the gateway's make-rebill, a sale (the spec has no preauth by reference), through the
 * widget's card form (the `direct` mode).
 */
function savedCardsPayable(
  value: { savedCards: readonly string[]; intent: string; modes: readonly string[] },
  ctx: z.RefinementCtx,
) {
  if (value.savedCards.length === 0) return;
  if (value.intent !== 'sale') {
    ctx.addIssue({
      code: 'custom',
      path: ['savedCards'],
      message: 'can be offered in a sale only: a saved card is charged by a rebill',
    });
  } else if (!value.modes.includes('direct')) {
    ctx.addIssue({
      code: 'custom',
      path: ['savedCards'],
      message: 'needs the direct mode: a saved card is paid in the card form',
    });
  }
}

// --- checkout sessions -----------------------------------------------------------------------

export const CreateSessionBody = z
  .object({
    amount: Amount,
    currency: Currency,
    orderId: MerchantOrderId,
    intent: z.enum(['sale', 'preauth']).default('sale'),
    description: z
      .string()
      .trim()
      .min(1, 'is required')
      .max(2000)
      .refine(noCardNumber, NO_CARD_NUMBER),
    customer: Customer.optional(),
    collect: Collect,
    countryHint: CountryHint.optional(),
    returnUrl: HttpsOrLocalUrl.optional(),
    metadata: Metadata.optional(),
    modes: z
      .array(z.enum(['direct', 'hosted']))
      .min(1, 'must name at least one mode')
      .max(2)
      .refine((m) => new Set(m).size === m.length, 'must not repeat a mode')
      .default(['direct', 'hosted'])
      .meta({
        description:
          "How the shopper may pay: `direct` (the widget's card form), `hosted` (the gateway's payment page), or both. The widget offers only these; the widget API refuses the others.",
      }),
    maxAttempts: z.number().int().min(1).max(10).default(5).meta({
      description:
        'How many payment attempts the shopper may make in this session: after a decline, an error, or a bank page left, the widget takes another card until this many were tried (a cap against card testing). The next one is refused with a 409 `attempts-exhausted`.',
    }),
    saveCard: z.enum(['ask', 'always', 'never']).default('never').meta({
      description:
        "Whether a new card is kept for the shopper's next visit once its payment is approved: `ask` (the widget shows an unticked \"Save this card for next time\" box; kept only when ticked), `always` (kept; only where you have the shopper's agreement elsewhere), `never`. A kept card is a card reference: the order's `cardRef` and the `card_ref.created` event.",
    }),
    savedCards: z
      .array(CardRefId)
      .max(10, 'must offer at most 10 cards')
      .refine((ids) => new Set(ids).size === ids.length, 'must not repeat a card reference')
      .default([])
      .meta({
        description:
          "Card references of this customer that the shopper may pay with by the security code, most recent first in the widget. Each must be one this backend holds: made through it (saved with the shopper's consent, or `POST /v1/orders/{orderId}/card-ref`) and not forgotten. The browser never sees them: it gets a handle per card, valid in this session only. A sale only, with the `direct` mode.",
      }),
    savedCardCvc: z.enum(['required', 'optional']).default('required').meta({
      description: 'Whether a saved card is paid with its security code typed again.',
    }),
    /** Minutes until the session (and its widget token) expires. */
    expiresInMinutes: z
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .default(30),
  })
  .strict()
  .superRefine(amountFitsCurrency)
  .superRefine(amountAboveZero)
  .superRefine(savedCardsPayable)
  .superRefine(neverGroupsWhole);

export const SessionCreated = z.object({
  id: z.string(),
  orderId: z.string().meta({
    description: 'The order this session pays; `GET /v1/orders/{orderId}` answers it from now on.',
  }),
  token: z
    .string()
    .meta({ description: "The widget's session JWT (the element's `session` attribute)." }),
  expiresAt: z.iso.datetime(),
});

export const SESSION_PARAM = { sessionId: 'The checkout session id (`id` of its creation).' };

// --- orders ----------------------------------------------------------------------------------

export const OrderStatusEnum = z
  .enum([
    'awaiting-payment',
    'expired',
    'new',
    'processing',
    'unknown',
    'approved',
    'declined',
    'error',
    'filtered',
  ])
  .meta({
    description:
      '`awaiting-payment`: its checkout session is open, nothing paid yet. `expired`: the session ended unpaid (nothing reached the gateway). `new`: paid, the gateway has not answered yet. `processing` / `unknown`: pending at the gateway (`unknown`: its answer was lost; being checked). `approved`, `declined`, `error`, `filtered`: final gateway statuses.',
  });

export const Attempt = z
  .object({
    id: z.string().meta({
      description:
        "The attempt's id at the gateway (`client_orderid`): the order id for the first, `<orderId>-2`, `<orderId>-3`, ... after (`<orderId>-<6 hex digits>-N` when you used `<orderId>-N` yourself).",
    }),
    attempt: z.number().int(),
    status: OrderStatusEnum,
    gatewayOrderId: z.string().nullable(),
    reason: z.string().nullable(),
    errorCode: z.string().nullable(),
    card: z.object({ brand: z.string(), last4: z.string() }).nullable(),
    abandoned: z.boolean().meta({
      description:
        'The shopper left its bank page and the session took another attempt; it is still followed to its final status.',
    }),
    paidWithCardRef: z.string().nullable().meta({
      description:
        'The card reference this attempt charged (the shopper paid with a saved card, by make-rebill), else null.',
    }),
    reversal: z
      .object({ reason: z.string(), reversedAt: z.iso.datetime().nullable() })
      .nullable()
      .meta({
        description:
          'Approved after another attempt of the order was approved first: reversed in full (void of a preauth, return of a sale). `reversedAt` once the gateway approved the reversal.',
      }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ description: 'One payment attempt of an order: its own gateway transaction.' });

const Livemode = z.boolean().meta({
  description:
    'False when the backend runs against a sandbox (SANDBOX=1, `npm start`, or the `testMode` option): no real money moved.',
});

export const OrderCardRef = z
  .object({
    id: z.string(),
    orderId: z.string().meta({ description: "The merchant's order id it was made from." }),
    brand: z.string(),
    last4: z.string().nullable(),
    createdAt: z.iso.datetime(),
    forgotten: z.boolean().meta({
      description:
        'You forgot it (`POST /v1/card-refs/{cardRefId}/forget`): no session offers it, and a rebill, recurring payment or transfer that names it is refused (409 `card-ref-forgotten`).',
    }),
    expMonth: z.string().nullable().optional(),
    expYear: z.string().nullable().optional(),
    holder: z.string().nullable().optional(),
  })
  .meta({
    description:
      "The card reference made from the order's approved attempt. `expMonth`, `expYear` and `holder` are read from the gateway (get-card-info) on `GET /v1/orders/{orderId}` and `GET /v1/checkout-sessions/{sessionId}` only (null when it cannot tell now): never stored, so never in lists, events or answers kept under an Idempotency-Key.",
  });

/** The customer a paid order carried to the gateway (its shown attempt's). */
const OrderCustomer = z.record(z.string(), z.string()).nullable().meta({
  description:
    "The customer the sale (or preauth, hosted form, saved card's payment) carried: your session's `customer` merged with what the shopper typed in the element (a group of `collect`) or a saved card's first payment gave; `customer` field names, the phone as E.164. Null until the shopper pays. Personal data: masked in the backend's logs, never in a URL.",
});

export const Order = z.object({
  orderId: z.string(),
  livemode: Livemode,
  gatewayOrderId: z.string().nullable(),
  sessionId: z.string().nullable(),
  intent: z.enum(['sale', 'preauth']),
  status: OrderStatusEnum,
  amount: z.string(),
  currency: z.string(),
  capturedAmount: z.string(),
  returnedAmount: z.string(),
  voided: z.boolean(),
  card: z.object({ brand: z.string(), last4: z.string(), masked: z.string() }).nullable(),
  reason: z.string().nullable(),
  errorCode: z.string().nullable(),
  cardRef: OrderCardRef.nullable(),
  customer: OrderCustomer,
  attempts: z.array(Attempt).meta({
    description:
      "Every payment attempt so far, first to last. The order's status, amounts, card and gateway id are those of the attempt it keeps (the approved one), else of the latest.",
  }),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

export const CheckoutSessionView = z.object({
  id: z.string(),
  orderId: z.string(),
  state: z.enum(['open', 'paying', 'completed', 'cancelled', 'expired']).meta({
    description:
      '`open`: waiting for the shopper (nothing paid yet, or the last attempt failed or was left and another may follow). `paying`: an attempt is under way. `completed`: an attempt was approved, or the last one allowed failed. `cancelled`: the shopper left the bank page of the last attempt allowed. `expired`: ended, at its expiry or by `POST .../expire`.',
  }),
  amount: z.string(),
  currency: z.string(),
  intent: z.enum(['sale', 'preauth']),
  description: z.string(),
  modes: z.array(z.enum(['direct', 'hosted'])),
  maxAttempts: z.number().int(),
  saveCard: z.enum(['ask', 'always', 'never']),
  savedCards: z.array(z.string()).meta({
    description: 'The card references the session offers (forgotten ones left out).',
  }),
  savedCardCvc: z.enum(['required', 'optional']),
  collect: z.object({
    email: z.enum(['auto', 'always', 'never']),
    phone: z.enum(['auto', 'always', 'never']),
    billingAddress: z.enum(['auto', 'always', 'never']),
  }),
  countryHint: z.string().nullable(),
  livemode: Livemode,
  returnUrl: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  expiresAt: z.iso.datetime(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  order: Order.nullable().meta({ description: "The session's order as it stands now." }),
});

export const OrderList = z.object({ orders: z.array(Order), nextCursor: z.string().nullable() });

/** A page of a list: its size, and the cursor of the previous page's `nextCursor`. */
export const PAGE = {
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(500)
    .default(50)
    .meta({ description: 'How many items a page holds.' }),
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,40}$/, 'is not a cursor from a previous page')
    .refine(isListCursor, 'is not a cursor from a previous page')
    .optional()
    .meta({
      description:
        "The previous page's `nextCursor`, unchanged: any other value is a 400 naming `cursor`.",
    }),
};

export const ListOrdersQuery = z
  .object({
    status: z
      .string()
      .transform((s) => s.split(',').filter(Boolean))
      .pipe(z.array(OrderStatusEnum))
      .optional()
      .meta({
        description: 'One status, or several separated by commas.',
        // As sent: one comma-separated value (openapi.ts makes it `style: form, explode: false`).
        type: 'array',
        items: { $ref: '#/components/schemas/OrderStatus' },
        minItems: 1,
      }),
    createdFrom: z.iso
      .datetime({ error: 'must be an ISO 8601 date-time' })
      .optional()
      .meta({ description: 'Orders created at or after this time (UTC, `Z`).' }),
    createdTo: z.iso
      .datetime({ error: 'must be an ISO 8601 date-time' })
      .optional()
      .meta({ description: 'Orders created before this time (UTC, `Z`).' }),
    ...PAGE,
  })
  .strict();

// --- events ----------------------------------------------------------------------------------

export const EVENT_PARAM = {
  eventId: 'The event id (`id` of the event; the `Pay-Checkout-Event-Id` header of its delivery).',
};

export const ListEventsQuery = z
  .object({
    type: z
      .string()
      .regex(/^[a-z][a-z0-9._-]{0,60}$/, 'must be an event type such as order.approved')
      .optional()
      .meta({ description: 'One event type, e.g. `order.approved` or `capture.approved`.' }),
    orderId: MerchantOrderId.optional().meta({
      description:
        "The merchant's order id: every event of that order (its statuses, payment attempts, card reference, and its captures, voids and returns), or of the merchant operation (rebill, payout, transfer, ...) made under that id.",
    }),
    delivered: z
      .enum(['true', 'false'], { error: 'must be true or false' })
      .transform((v) => v === 'true')
      .optional()
      .meta({
        description:
          '`false`: not delivered (pending, given up, or kept with no WEBHOOK_URL: `delivery.state` tells which).',
      }),
    ...PAGE,
  })
  .strict();

export const Event = z
  .object({
    id: z.string(),
    type: z.string().meta({
      description:
        '`order.approved`, `order.declined`, `order.error`, `order.filtered`, `order.expired`, `order.attempts-exhausted`, `payment.declined`, `payment.reversed`, `card_ref.created`, `payment_link.paid`, `payment_link.expired`, `security.csp-violation`, or `<operation>.<status>` (`return.approved`, `payout.declined`, ...).',
    }),
    createdAt: z.iso.datetime().meta({
      description:
        "When the event was made: events of one order are in this order (each also carries the order's `updatedAt`).",
    }),
    livemode: z.boolean().optional(),
    data: z.record(z.string(), z.unknown()).meta({
      description:
        "An order's event: `order` (the order as `GET /v1/orders/{orderId}` shows it), and `attempt` or `cardRef` where they apply. An operation's event: `operationId`, `kind`, `orderId` (the merchant's order id: the order a capture, void or return moved, else the operation's own), `clientId` and `status`.",
    }),
    delivery: z.object({
      state: z.enum(['pending', 'delivered', 'failed', 'not-configured']).meta({
        description:
          '`pending`: being sent (see `nextAttemptAt`); `delivered`; `failed`: given up after the retries; `not-configured`: made while no WEBHOOK_URL was set, kept for this list and never sent (not when a WEBHOOK_URL is set later either, unless POST .../redeliver asks for it).',
      }),
      delivered: z.boolean(),
      deliveredAt: z.iso.datetime().nullable(),
      attempts: z.number().int(),
      nextAttemptAt: z.iso.datetime().nullable().meta({
        description: 'The next try while undelivered (null once delivered or given up)',
      }),
      failedAt: z.iso.datetime().nullable().meta({
        description: 'Given up (three days of retries passed); POST .../redeliver sends it again',
      }),
      lastError: z.string().nullable(),
    }),
  })
  .meta({
    description:
      'An event as it is delivered to WEBHOOK_URL (or kept, with no WEBHOOK_URL), and how its delivery stands.',
  });

export const EventList = z.object({ events: z.array(Event), nextCursor: z.string().nullable() });

export const PartialAmountBody = z
  .object({ amount: Amount.optional() })
  .strict()
  .meta({ description: 'Omit `amount` for the full (remaining) amount.' });

export const EmptyBody = z.object({}).strict();

/** What a person read in the gateway's back office about an operation whose answer was lost. */
export const ResolveOperationBody = z
  .object({
    status: z.enum(['approved', 'declined']).meta({
      description: '`approved`: the gateway moved the money; `declined`: it did not',
    }),
    note: z
      .string()
      .trim()
      .min(1, 'must say what was checked')
      .max(400)
      .refine(noCardNumber, NO_CARD_NUMBER)
      .meta({ description: "Who checked what; kept in the operation's `reason`" }),
  })
  .strict();

// --- card references, rebills, recurring payments -----------------------------------------------

export const CardRef = z.object({ cardRefId: z.string(), orderId: z.string().optional() });

export const CardInfo = z.object({
  cardRefId: z.string(),
  bin: z.string().nullable(),
  last4: z.string().nullable(),
  brand: z.string().nullable(),
  expMonth: z.string().nullable(),
  expYear: z.string().nullable(),
  holder: z.string().nullable(),
  orderId: z.string().nullable().meta({
    description:
      "The merchant's order id this backend made it from; null for a reference it did not make (sessions cannot offer those).",
  }),
  forgotten: z.boolean().meta({
    description:
      'You forgot it: no session offers it any more, and a rebill, recurring payment or transfer that names it is refused (409 `card-ref-forgotten`).',
  }),
});

export const CreateRebillBody = z
  .object({
    cardRefId: CardRefId,
    orderId: MerchantOrderId,
    amount: Amount,
    currency: Currency,
    description: z.string().max(2000).optional(),
  })
  .strict()
  .superRefine(amountFitsCurrency)
  .superRefine(amountAboveZero)
  .meta({ allOf: AMOUNT_FITS_CURRENCY });

export const CreateRecurringBody = z
  .object({
    cardRefId: CardRefId,
    amount: Amount,
    currency: Currency,
    // Not MerchantOrderId's namespace: create-recurring-payment sends no client_orderid.
    orderId: MerchantOrderId.meta({
      description:
        "Your id for this recurring payment, used here only (the gateway's create-recurring-payment takes no client_orderid): unique among recurring payments, it may equal any other orderId.",
    }),
    email: z.email('must be an e-mail address'),
    period: z.enum(['day', 'week', 'month']),
    interval: z.number().int().min(1).max(365),
    startDate: z.iso.date().optional(),
    maxRepeats: z.number().int().min(1).max(10000).optional(),
    customer: Customer.optional(),
    description: z.string().max(2000).optional(),
  })
  .strict()
  .superRefine(amountFitsCurrency)
  .superRefine(amountAboveZero)
  .meta({ allOf: AMOUNT_FITS_CURRENCY });

/** A money movement other than a checkout payment: rebill, payout, transfer, verification... */
export const Operation = z.object({
  id: z.string(),
  kind: z.string(),
  orderId: z.string(),
  gatewayOrderId: z.string().nullable(),
  gatewayRef: z.string().nullable(),
  status: z.string(),
  amount: z.string().nullable(),
  currency: z.string().nullable(),
  reason: z.string().nullable(),
  createdAt: z.iso.datetime(),
});

// --- payouts and transfers -------------------------------------------------------------------

const CardDestination = z
  .object({
    number: CardNumber,
    expMonth: z
      .string()
      .regex(/^(0[1-9]|1[0-2])$/, 'must be 01-12')
      .optional(),
    expYear: z
      .string()
      .regex(/^\d{4}$/, 'must be four digits')
      .optional(),
    holder: text(128).optional(),
  })
  .strict();

const BankDestination = z.object({ accountNumber: text(64), bankName: text(128) }).strict();

/**
 * A payout's orderId, which `GET /v1/payouts/{payoutId}` reads it by: never `check`, the path of
 * the two-step payout's first step, so that the two routes cannot be taken for one another.
 */
const PayoutOrderId = MerchantOrderId.refine(
  (id) => id !== 'check',
  'must not be `check` (the path of POST /v1/payouts/check)',
).meta({ not: { const: 'check' } });

/** Adds an issue when none of `keys` is given: a payout needs somewhere to send the money. */
function oneDestination(keys: readonly string[]) {
  return (value: Record<string, unknown>, ctx: z.RefinementCtx) => {
    if (keys.some((key) => value[key] !== undefined)) return;
    ctx.addIssue({
      code: 'custom',
      path: [keys[0] ?? 'card'],
      message: `one destination (${keys.join(', ')}) is required`,
    });
  };
}
/** The same rule for the document: `anyOf` of `required`. */
const oneDestinationJson = (keys: readonly string[]) => ({
  anyOf: keys.map((key) => ({ required: [key] })),
});
const PAYOUT_DESTINATIONS = ['card', 'bank', 'phone'] as const;
const CHECK_DESTINATIONS = ['cardNumber', 'bank', 'phone'] as const;

export const CreatePayoutBody = z
  .object({
    orderId: PayoutOrderId,
    amount: Amount,
    currency: Currency,
    description: z.string().max(2000).optional(),
    card: CardDestination.optional(),
    bank: BankDestination.optional(),
    phone: z
      .string()
      .regex(/^\+?[0-9]{5,20}$/, 'must be a phone number')
      .optional(),
    email: z.email().optional(),
  })
  .strict()
  .superRefine(amountFitsCurrency)
  .superRefine(amountAboveZero)
  .superRefine(oneDestination(PAYOUT_DESTINATIONS))
  .meta({ allOf: AMOUNT_FITS_CURRENCY, ...oneDestinationJson(PAYOUT_DESTINATIONS) });

export const CheckPayoutBody = z
  .object({
    orderId: PayoutOrderId,
    amount: Amount,
    currency: Currency,
    description: z.string().max(2000).optional(),
    cardNumber: CardNumber.optional(),
    bank: BankDestination.optional(),
    phone: z
      .string()
      .regex(/^\+?[0-9]{5,20}$/, 'must be a phone number')
      .optional(),
  })
  .strict()
  .superRefine(amountFitsCurrency)
  .superRefine(amountAboveZero)
  .superRefine(oneDestination(CHECK_DESTINATIONS))
  .meta({ allOf: AMOUNT_FITS_CURRENCY, ...oneDestinationJson(CHECK_DESTINATIONS) });

export const CreateTransferBody = z
  .object({
    orderId: MerchantOrderId,
    amount: Amount,
    currency: Currency,
    description: z.string().min(1).max(2000),
    sourceCardRefId: CardRefId,
    destinationCardNumber: CardNumber,
  })
  .strict()
  .superRefine(amountFitsCurrency)
  .superRefine(amountAboveZero)
  .meta({ allOf: AMOUNT_FITS_CURRENCY });

// --- account verification and hosted forms ----------------------------------------------------

const CardData = z
  .object({
    number: CardNumber,
    expMonth: z.string().regex(/^(0[1-9]|1[0-2])$/, 'must be 01-12'),
    expYear: z.string().regex(/^20\d{2}$/, 'must be four digits'),
    cvc: z.string().regex(/^\d{3,4}$/, 'must be 3 or 4 digits'),
    holder: text(128),
  })
  .strict();

export const CreateVerificationBody = z
  .object({
    orderId: MerchantOrderId,
    currency: Currency.default('EUR').meta({
      description: 'The currency of the zero-amount authorisation.',
    }),
    card: CardData,
    customer: WholeCustomer,
    returnUrl: HttpsOrLocalUrl.optional(),
    description: z.string().max(2000).optional(),
  })
  .strict();

export const HostedFormKind = z.enum([
  'sale',
  'preauth',
  'payment',
  'account-verification',
  'payout',
]);

export const CreateHostedFormBody = z
  .object({
    kind: HostedFormKind,
    orderId: MerchantOrderId,
    amount: Amount.optional(),
    // Every form names its currency, the zero-amount verification too: the gateway checks the
    // card in it, and a silent default would verify a USD merchant's card in EUR.
    currency: Currency,
    description: z.string().max(2000).optional(),
    customer: z
      .object({ ...CUSTOMER_FIELDS, email: CUSTOMER_FIELDS.email.unwrap() })
      .strict()
      .transform(normaliseCustomer),
    returnUrl: HttpsOrLocalUrl,
  })
  .strict()
  .superRefine(amountFitsCurrency)
  .superRefine((v, ctx) => {
    if (v.kind !== 'account-verification' && !v.amount) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'is required for this form' });
    }
    // A verification takes no amount: one given is checked like any other, so never zero.
    amountAboveZero(v, ctx);
  })
  .meta({
    allOf: [
      ...AMOUNT_FITS_CURRENCY,
      {
        if: { properties: { kind: { const: 'account-verification' } } },
        else: { properties: { amount: { type: 'string' } }, required: ['amount'] },
      },
    ],
  });

export const HostedFormLink = z.object({
  kind: HostedFormKind,
  orderId: z.string(),
  url: z.url(),
  gatewayOrderId: z.string().nullable(),
});

// --- errors ----------------------------------------------------------------------------------

export const ErrorResponse = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    field: z.string().optional(),
    requestId: z.string().optional(),
  }),
});

/**
 * The answers of a route that sends a merchant operation to the gateway (rebill, transfer, payout,
 * account verification): a final status, or still under way; a refusal. Each route adds its 409.
 */
export const OPERATION_RESPONSES = {
  200: { description: 'Final status reached', schema: Operation },
  202: {
    description: 'Sent; still processing, or its answer was lost (`unknown`: do not send it again)',
    schema: Operation,
  },
  422: { description: 'Refused by the gateway', schema: ErrorResponse },
};
