/**
 * The OpenAPI 3.1 document of the merchant API, built from the route table: the same zod schemas
 * that validate requests are converted with `z.toJSONSchema` (JSON Schema 2020-12, which is what
 * OpenAPI 3.1 speaks).
 */
import { z } from 'zod';
import type { RouteSpec } from './route-spec.js';

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/** `/orders/:orderId/capture` -> `/orders/{orderId}/capture`. */
function openapiPath(path: string): string {
  return `/v1${path.replace(/:([A-Za-z]+)/g, '{$1}')}`;
}

function queryParameters(schema: z.ZodType) {
  const json = schemaOf(schema, 'input') as {
    properties?: Record<string, unknown>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: json.required?.includes(name) ?? false,
    schema: property,
  }));
}

export function buildOpenApi(specs: readonly RouteSpec[], serverUrl: string) {
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
      ...(spec.query ? queryParameters(spec.query) : []),
      ...(spec.method === 'post'
        ? [
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: false,
              description:
                'A repeat with the same key and body gets the first answer and moves no money twice.',
              schema: { type: 'string', maxLength: 255 },
            },
          ]
        : []),
    ];
    const responses: Record<string, unknown> = {};
    for (const [status, response] of Object.entries(spec.responses)) {
      responses[status] = {
        description: response.description,
        ...(response.schema
          ? { content: { 'application/json': { schema: schemaOf(response.schema, 'output') } } }
          : {}),
      };
    }
    responses['400'] ??= { description: 'Invalid input; `error.field` names the field' };
    responses['401'] ??= { description: 'Missing or invalid API key' };
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
              content: { 'application/json': { schema: schemaOf(spec.body, 'input') } },
            },
          }
        : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'pay-checkout merchant API',
      version: '1.0.0',
      description:
        'Server-to-server API of the pay-checkout companion backend. Authenticate with `Authorization: Bearer MERCHANT_API_KEY`.',
    },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
    paths,
  };
}
