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

/** A control character that free text may not hold either (all but tab, LF and CR). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
const NOT_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/**
 * The dotted path of the first string in `value` (a parsed request body or query) that holds a
 * control character other than tab, LF or CR, `''` for `value` itself; undefined when none does.
 * Object keys count too: a metadata key is stored as well.
 */
export function controlCharacterPath(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return NOT_TEXT.test(value) ? path : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (NOT_TEXT.test(key)) return at;
    const found = controlCharacterPath(item, at);
    if (found !== undefined) return found;
  }
  return undefined;
}
