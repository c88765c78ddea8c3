/**
 * Zod schemas to JSON Schema for an OpenAPI document, with every schema that has a name (an `id`
 * in zod's global registry: schema-names.ts) written once under `components.schemas` and `$ref`ed
 * everywhere else. A client generator then makes one type per concept (one `Order`, one
 * `ErrorResponse`) instead of one per place it appears.
 */
import { z } from 'zod';

type Json = Record<string, unknown>;

const REF_PREFIX = '#/components/schemas/';

/** zod writes named parts under `$defs` of each conversion; the document keeps them once. */
function toComponentRefs<T>(json: T): T {
  return JSON.parse(JSON.stringify(json).replaceAll('"#/$defs/', `"${REF_PREFIX}`)) as T;
}

export interface SchemaCollector {
  /** JSON Schema of `schema` as a request (`input`) or an answer (`output`) reads it. */
  schemaOf(schema: z.ZodType, io: 'input' | 'output'): Json;
  /** A named schema of the collector's own making (shared answers' bodies). */
  refTo(schema: z.ZodType, io: 'input' | 'output'): Json;
  readonly schemas: Record<string, Json>;
}

/**
 * `adjust` may rewrite every converted schema before it is kept (stricter request strings:
 * openapi-strings.ts). A name met twice must convert to the same schema both times: a name used
 * in a request and an answer that differ (a default makes a field optional in one and required in
 * the other) throws, so the document never holds two meanings under one name.
 */
export function schemaCollector(
  adjust: (json: Json, io: 'input' | 'output') => Json = (json) => json,
): SchemaCollector {
  const schemas: Record<string, Json> = {};
  const keep = (id: string, json: Json) => {
    const before = schemas[id];
    if (before && JSON.stringify(before) !== JSON.stringify(json)) {
      throw new Error(`schema ${id} converts differently in two places of the OpenAPI document`);
    }
    schemas[id] = json;
  };
  const schemaOf = (schema: z.ZodType, io: 'input' | 'output'): Json => {
    const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
    delete json.$schema;
    const defs = (json.$defs ?? {}) as Record<string, Json>;
    delete json.$defs;
    for (const [id, def] of Object.entries(defs)) keep(id, adjust(toComponentRefs(def), io));
    return adjust(toComponentRefs(json), io);
  };
  return {
    schemas,
    schemaOf,
    refTo(schema, io) {
      const json = schemaOf(schema, io);
      if (typeof json.$ref !== 'string') throw new Error('refTo needs a named schema');
      return json;
    },
  };
}
