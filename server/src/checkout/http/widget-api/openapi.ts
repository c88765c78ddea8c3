/**
 * The OpenAPI 3.1 document of the widget API (`GET /widget/openapi.json`, public: it holds no
 * secret), for whoever writes a client other than <pay-checkout>. Its requests are the zod
 * schemas that validate them (schemas.ts), converted as the merchant API's are
 * (merchant-api/openapi-components.ts); its answers are the contract's TypeScript types
 * (contract/api-types.ts: `SessionView`, `NextAction`), which have no zod schema to convert, so
 * the document names them and describes them in words, and gives every error its body.
 */
import { globalRegistry, z } from 'zod';
import { schemaCollector } from '../merchant-api/openapi-components.js';
import { strictRequestStrings } from '../merchant-api/openapi-strings.js';
import {
  BrowserInfoSchema,
  CancelSchema,
  CardInputSchema,
  MethodResultSchema,
  NextQuerySchema,
  PayRequestSchema,
  SavedCardPayRequestSchema,
} from './schemas.js';

type Json = Record<string, unknown>;

const NAMES: ReadonlyArray<readonly [z.ZodType, string]> = [
  [BrowserInfoSchema, 'BrowserInfo'],
  [CardInputSchema, 'CardInput'],
  [PayRequestSchema, 'CardPayRequest'],
  [SavedCardPayRequestSchema, 'SavedCardPayRequest'],
  [MethodResultSchema, 'MethodResultRequest'],
  [CancelSchema, 'CancelRequest'],
];
for (const [schema, id] of NAMES) globalRegistry.add(schema, { ...globalRegistry.get(schema), id });

/** The widget's error body: the merchant API's shape, with the widget's codes. */
const WidgetApiError = z
  .object({
    error: z.object({
      code: z.string().meta({
        description:
          '`validation` (400, `field` names the field), `unauthorized` (401), `session-expired` (401 or 410), `forbidden` (403: the Origin is not an allowed merchant page), `conflict`, `attempts-exhausted`, `payment-in-flight`, `saved-card-expired` (409), `saved-card-unknown` (400), `payload-too-large` (413), `rate-limited` (429), `gateway` (502), `internal` (500).',
      }),
      message: z.string(),
      field: z.string().optional(),
      requestId: z.string().optional(),
    }),
  })
  .meta({ id: 'WidgetApiError' });

const SESSION_VIEW = {
  type: 'object',
  description:
    'The session as the widget shows it: `SessionView` of contract/api-types.ts (amount, currency, intent, modes, state, attempts left, saved cards offered, the payment so far).',
};
const NEXT_ACTION = {
  type: 'object',
  required: ['action'],
  properties: { action: { type: 'string' } },
  description:
    "What the widget does next: `NextAction` of contract/api-types.ts, told apart by `action` (`wait`, `method`, `challenge`, `3ds1`, `html`, `redirect`, `final`), with the order's status.",
};

/** The widget API's paths under `/widget`, and the errors each can answer. */
export function buildWidgetOpenApi(serverUrl: string) {
  const collector = schemaCollector((json, io) =>
    io === 'input' ? (strictRequestStrings(json) as Json) : json,
  );
  const errorBody = collector.refTo(WidgetApiError, 'output');
  const json = (schema: Json) => ({ content: { 'application/json': { schema } } });
  const errors = (statuses: Record<string, string>) =>
    Object.fromEntries(
      Object.entries({
        400: 'Invalid input (`validation`): `error.field` names the field.',
        401: 'Missing, invalid or expired session token (`unauthorized`, `session-expired`).',
        429: 'Too many requests from this address or for this session (`rate-limited`), with `Retry-After`.',
        500: 'An unexpected error (`internal`).',
        ...statuses,
      }).map(([status, description]) => [status, { description, ...json(errorBody) }]),
    );
  const body = (schema: Json) => ({ requestBody: { required: true, ...json(schema) } });
  const next = { 200: { description: 'What to do next', ...json(NEXT_ACTION) } };
  const paying = {
    403: 'The request does not come from an allowed merchant page (`forbidden`).',
    409: 'The session cannot take this payment now (`conflict`, `attempts-exhausted`, `saved-card-expired`).',
    410: 'The session has expired (`session-expired`).',
    413: 'The body is larger than 8 KB (`payload-too-large`).',
    502: 'The gateway failed (`gateway`).',
  };
  const nothingPaid = { 409: 'Nothing has been paid in this session yet (`conflict`).' };
  const paths = {
    '/widget/session': {
      get: {
        operationId: 'getSession',
        summary: 'Read the checkout session the token names.',
        responses: { 200: { description: 'The session', ...json(SESSION_VIEW) }, ...errors({}) },
      },
    },
    '/widget/pay': {
      post: {
        operationId: 'pay',
        summary: 'Pay with a typed card, or a saved card the session offers (by its handle).',
        ...body({
          oneOf: [
            collector.refTo(PayRequestSchema, 'input'),
            collector.refTo(SavedCardPayRequestSchema, 'input'),
          ],
        }),
        responses: { ...next, ...errors(paying) },
      },
    },
    '/widget/method-result': {
      post: {
        operationId: 'reportMethodResult',
        summary: 'Report how the 3-D Secure Method ran (within its 10 s window).',
        ...body(collector.refTo(MethodResultSchema, 'input')),
        responses: { ...next, ...errors(nothingPaid) },
      },
    },
    '/widget/next': {
      get: {
        operationId: 'next',
        summary: 'Follow the payment: what to do next, waiting up to `wait` seconds for a change.',
        parameters: Object.entries(
          (collector.schemaOf(NextQuerySchema, 'input').properties ?? {}) as Record<string, Json>,
        ).map(([name, schema]) => ({ name, in: 'query', required: false, schema })),
        responses: { ...next, ...errors(nothingPaid) },
      },
    },
    '/widget/cancel': {
      post: {
        operationId: 'cancel',
        summary: "Leave the bank page of the payment's attempt: the session may take another.",
        ...body(collector.refTo(CancelSchema, 'input')),
        responses: {
          ...next,
          ...errors({
            409: 'Nothing paid yet (`conflict`), or the attempt showed no bank page yet (`payment-in-flight`): follow it.',
          }),
        },
      },
    },
    '/widget/hosted': {
      post: {
        operationId: 'payHosted',
        summary: "Pay on the gateway's hosted page: the answer redirects there.",
        responses: { ...next, ...errors(paying) },
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'pay-checkout widget API',
      version: '1.0.0',
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        "The browser API that <pay-checkout> calls, with the checkout session's token (`Authorization: Bearer <token>`, the `token` of `POST /v1/checkout-sessions`) from an allowed merchant origin (CORS). Amount, currency and intent are the session's: nothing here changes them.",
    },
    servers: [{ url: serverUrl }],
    security: [{ sessionToken: [] }],
    paths,
    components: {
      securitySchemes: { sessionToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: collector.schemas,
    },
  };
}
