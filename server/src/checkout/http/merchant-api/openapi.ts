/**
 * The OpenAPI 3.1 document of the merchant API, built from the route table: the same zod schemas
 * that validate requests are converted with `z.toJSONSchema` (JSON Schema 2020-12, which is what
 * OpenAPI 3.1 speaks). Named schemas (schema-names.ts) are written once under
 * `components.schemas`; the answers every route shares once under `components.responses`
 * (openapi-responses.ts); request strings carry the server's control-character rule
 * (openapi-strings.ts).
 */
import type { z } from 'zod';
import { IDEMPOTENCY_KEY_PATTERN } from './idempotency.js';
import { schemaCollector } from './openapi-components.js';
import { completeResponses, sharedResponses } from './openapi-responses.js';
import { strictRequestStrings } from './openapi-strings.js';
import type { RouteSpec } from './route-spec.js';
import './schema-names.js';
import { ErrorResponse } from './schemas.js';

type Json = Record<string, unknown>;

/** What each tag of the route table groups, for the document's readers. */
const TAGS: Record<string, string> = {
  'Checkout sessions': 'A session per order: its token goes to <pay-checkout>.',
  Orders: 'Orders from their session on: read, list, refresh, capture, void, return.',
  'Card references': 'Cards kept as gateway references: make, read, forget.',
  Rebills: 'Charges of a card reference, without the shopper.',
  'Recurring payments': 'Schedules the gateway charges a card reference on.',
  Payouts: 'Money to a card, bank account or phone: one step, or check then pay.',
  Transfers: 'Money from a card reference to a card.',
  'Account verification': 'A zero-amount authorisation of a card.',
  'Hosted forms': "Links to the gateway's own payment, verification and payout pages.",
  Operations: 'Any merchant operation by its id; a lost answer resolved by hand.',
  Events: 'Every event, delivered to WEBHOOK_URL or not; sent again on request.',
};

/** `/orders/:orderId/capture` -> `/orders/{orderId}/capture`. */
function openapiPath(path: string): string {
  return `/v1${path.replace(/:([A-Za-z]+)/g, '{$1}')}`;
}

/**
 * Query parameters, one per property. An array is sent as one comma-separated value
 * (`status=approved,declined`), which OpenAPI calls `style: form, explode: false`.
 */
function queryParameters(json: Json) {
  const properties = (json.properties ?? {}) as Record<string, Json>;
  const required = (json.required ?? []) as string[];
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: required.includes(name),
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    ...(property.type === 'array' ? { style: 'form', explode: false } : {}),
    schema: property,
  }));
}

export function buildOpenApi(specs: readonly RouteSpec[], serverUrl: string) {
  const collector = schemaCollector((json, io) =>
    io === 'input' ? (strictRequestStrings(json) as Json) : json,
  );
  const errorBody = collector.refTo(ErrorResponse, 'output');
  const responseOf = (response: { description: string; schema?: z.ZodType }) => ({
    description: response.description,
    content: {
      'application/json': {
        schema: response.schema ? collector.schemaOf(response.schema, 'output') : errorBody,
      },
    },
  });
  const paths: Record<string, Record<string, unknown>> = {};
  for (const spec of specs) {
    const path = openapiPath(spec.path);
    const parameters = [
      ...Object.entries(spec.params ?? {}).map(([name, description]) => ({
        name,
        in: 'path',
        required: true,
        description,
        schema: { type: 'string' },
      })),
      ...(spec.query ? queryParameters(collector.schemaOf(spec.query, 'input')) : []),
      ...(spec.method === 'post' ? [{ $ref: '#/components/parameters/Idempotency-Key' }] : []),
    ];
    const own: Record<string, Json> = {};
    for (const [status, response] of Object.entries(spec.responses)) {
      own[status] = responseOf(response);
    }
    paths[path] ??= {};
    paths[path][spec.method] = {
      operationId: spec.operationId,
      summary: spec.summary,
      tags: [spec.tag],
      ...(parameters.length ? { parameters } : {}),
      ...(spec.body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: collector.schemaOf(spec.body, 'input') } },
            },
          }
        : {}),
      responses: completeResponses(own, {
        post: spec.method === 'post',
        hasPathParams: Object.keys(spec.params ?? {}).length > 0,
        errorBody,
      }),
    };
  }
  const shared = sharedResponses(errorBody);
  const tags = [...new Set(specs.map((spec) => spec.tag))].map((name) => ({
    name,
    ...(TAGS[name] ? { description: TAGS[name] } : {}),
  }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'pay-checkout merchant API',
      version: '1.0.0',
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'Server-to-server API of the pay-checkout companion backend. Authenticate with `Authorization: Bearer MERCHANT_API_KEY`. Every error answer has the body `ErrorResponse`; `error.code` tells errors of one status apart. A method a path does not take is a 405 with `Allow`.',
    },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    tags,
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
      parameters: {
        'Idempotency-Key': {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'A repeat with the same key and body gets the first answer (`Idempotent-Replayed: true`) and moves no money twice; the same key with another body is a 422 `idempotency-conflict`. Kept for 24 hours.',
          schema: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN },
        },
      },
      headers: shared.headers,
      responses: shared.responses,
      schemas: collector.schemas,
    },
  };
}
