/**
 * Tolerant response parsing: JSON (the `application/vnd.pay+json` answer) or the legacy
 * form-encoded body with a newline after each value; string or number ids; the field names and
 * spellings of response-fields.ts.
 */
import {
  CARD_FIELDS,
  type FieldSpec,
  foldFieldName,
  RESULT_FIELDS,
  THREE_DS_FIELDS,
} from './response-fields.js';
import type { GatewayResult } from './types/results.js';

/**
 * The body as trimmed string fields, or undefined when it is neither a JSON object nor a form
 * body. Nested JSON values are kept as their JSON text; nulls are dropped.
 */
export function parseBody(text: string): Record<string, string> | undefined {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) return parseJson(trimmed);
  if (/^[^=&\s<>]+=/.test(trimmed)) return parseForm(trimmed);
  return undefined;
}

function parseJson(text: string): Record<string, string> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const out: Record<string, string> = {};
  for (const [name, field] of Object.entries(value)) {
    if (field === null || field === undefined) continue;
    out[name] = typeof field === 'object' ? JSON.stringify(field) : String(field).trim();
  }
  return out;
}

function parseForm(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  // URLSearchParams splits on `&` and decodes; the trailing newline of each value is trimmed
  // (php-lib does the same), and a key never starts with the previous line's newline.
  for (const [name, value] of new URLSearchParams(text)) {
    const key = name.trim();
    if (key) out[key] = value.trim();
  }
  return out;
}

/** The gateway writes `error_message=null` literally when there is none. */
const ABSENT = new Set(['', 'null']);

function pick<K extends string>(
  fields: ReadonlyMap<string, string>,
  table: Readonly<Record<K, FieldSpec>>,
): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const key of Object.keys(table) as K[]) {
    for (const spelling of table[key].spellings) {
      const value = fields.get(spelling);
      if (value !== undefined && !ABSENT.has(value)) {
        out[key] = value;
        break;
      }
    }
  }
  return out;
}

/** Raw fields -> the normalised result. `type` is '' when the body has none. */
export function normalizeResult(raw: Record<string, string>, requestId: string): GatewayResult {
  const fields = new Map<string, string>();
  for (const [name, value] of Object.entries(raw)) {
    const key = foldFieldName(name);
    if (!fields.has(key)) fields.set(key, value);
  }
  const { type = '', ...top } = pick(fields, RESULT_FIELDS);
  const result: GatewayResult = { type, ...top, requestId, raw };
  const threeDS = pick(fields, THREE_DS_FIELDS);
  if (Object.keys(threeDS).length > 0) result.threeDS = threeDS;
  const card = pick(fields, CARD_FIELDS);
  if (Object.keys(card).length > 0) result.card = card;
  return result;
}
