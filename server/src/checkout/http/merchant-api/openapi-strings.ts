/**
 * What every request string obeys without each schema saying it, put into the document: the
 * server refuses a control character other than tab, line feed and carriage return in any string
 * it parses (errors.ts, parseOr400), and a one-line field (a name, an address line) holds none at
 * all (control-characters.ts). Without these patterns a generated client or a form built from the
 * document sends text it calls valid and gets a 400.
 * The patterns themselves are in control-characters.ts, beside the rules they state.
 */

import { FREE_TEXT_PATTERN, TEXT_CHAR } from '../../control-characters.js';

/** Free text that is not blank once trimmed. */
const NON_BLANK_TEXT_PATTERN = `^${TEXT_CHAR}*[^\\s\\x00-\\x1f\\x7f]${TEXT_CHAR}*$`;

type Json = Record<string, unknown>;

function isStringSchema(node: Json): boolean {
  return node.type === 'string' || (Array.isArray(node.type) && node.type.includes('string'));
}

/**
 * A string with no pattern, format, enum or const gets the free-text pattern (a non-blank one
 * when it must not be empty: the server trims such fields before counting). Patterns already
 * there allow no control character (ids, amounts, codes), and formats (e-mail, URL, date) none.
 */
function stricter(node: Json): Json {
  if (!isStringSchema(node)) return node;
  if ('pattern' in node || 'format' in node || 'enum' in node || 'const' in node) return node;
  const nonEmpty = typeof node.minLength === 'number' && node.minLength > 0;
  return { ...node, pattern: nonEmpty ? NON_BLANK_TEXT_PATTERN : FREE_TEXT_PATTERN };
}

/** Applies `stricter` to every schema inside a request schema (a `$ref` is adjusted where named). */
export function strictRequestStrings(json: unknown): unknown {
  if (Array.isArray(json)) return json.map(strictRequestStrings);
  if (typeof json !== 'object' || json === null) return json;
  const walked: Json = {};
  for (const [key, value] of Object.entries(json)) {
    // `default`, `examples` and `const` are values, not schemas.
    walked[key] =
      key === 'default' || key === 'examples' || key === 'const' || key === 'enum'
        ? value
        : strictRequestStrings(value);
  }
  return stricter(walked);
}
