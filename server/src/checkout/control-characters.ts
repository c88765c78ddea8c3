/**
 * Control characters in what a client sends. PostgreSQL stores no NUL (in text or jsonb: the
 * write fails, and a failed write must be a 400, not a 500), and the gateway refuses control
 * characters in its text fields. Tab, line feed and carriage return are text; the rest is not.
 */

/** Any C0 control or DEL: ids, path parameters and one-line text hold none at all. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/** For zod's `refine`: a name or an address line, which the gateway takes on one line only. */
export const isOneLine = (text: string): boolean => !CONTROL_CHARACTER.test(text);
export const ONE_LINE = 'must be one line, without control characters';

/*
 * The same rules as patterns for the OpenAPI documents (http/merchant-api/openapi-strings.ts), so
 * that a generated client or a form built from them refuses what the server refuses. Written with
 * `\x` escapes, the one spelling of a code point that ECMAScript, Python, Java, PCRE and Rust
 * regular expressions all read.
 */
/** No control character but tab, LF and CR (free text: descriptions, notes). */
export const TEXT_CHAR = '[^\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f]';
/** No control character at all (one line). */
export const LINE_CHAR = '[^\\x00-\\x1f\\x7f]';
export const FREE_TEXT_PATTERN = `^${TEXT_CHAR}*$`;
export const ONE_LINE_PATTERN = `^${LINE_CHAR}*$`;
/** One line that is not blank: a trimmed field that must not be empty (names, address lines). */
export const NON_BLANK_LINE_PATTERN = `^${LINE_CHAR}*[^\\s\\x00-\\x1f\\x7f]${LINE_CHAR}*$`;

/** A control character that free text may not hold either (all but tab, LF and CR). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
const NOT_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/**
 * A UTF-16 surrogate without its pair: not text in any encoding a database stores (PostgreSQL
 * refuses it in text and jsonb), so a write holding one failed where a 400 belongs.
 */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * The dotted path of the first string in `value` (a parsed request body or query) for which
 * `bad` holds, `''` for `value` itself; undefined when none does. Object keys count too: a
 * metadata key is stored as well. `skip`: keys whose values are not looked at.
 */
export function firstStringPath(
  value: unknown,
  bad: (text: string) => boolean,
  skip: (key: string) => boolean = () => false,
  path = '',
): string | undefined {
  if (typeof value === 'string') return bad(value) ? path : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (bad(key)) return at;
    if (skip(key)) continue;
    const found = firstStringPath(item, bad, skip, at);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The first string holding a control character other than tab, LF or CR (firstStringPath). */
export const controlCharacterPath = (value: unknown): string | undefined =>
  firstStringPath(value, (text) => NOT_TEXT.test(text));

/** The first string that is not well-formed UTF-16 (firstStringPath). */
export const illFormedTextPath = (value: unknown): string | undefined =>
  firstStringPath(value, (text) => LONE_SURROGATE.test(text));
