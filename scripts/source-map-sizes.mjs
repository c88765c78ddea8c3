// Which source file each byte of a minified bundle came from, read from the bundle's source map
// (what source-map-explorer does): every mapping segment owns the generated text up to the next
// segment. A segment without a source (a 1-field segment) owns nothing anyone wrote; text before
// a line's first segment continues the segment before it, which is how a multi-line template
// literal keeps its module. Plain JS: test/bench/widget-size.mjs runs without a TypeScript loader.

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** One `mappings` line as [generated column, source index or -1], columns absolute. */
function decodeLine(line, state) {
  const segments = [];
  let column = 0;
  for (const segment of line.split(',')) {
    if (!segment) continue;
    const fields = [];
    let value = 0;
    let shift = 0;
    for (const ch of segment) {
      const digit = B64.indexOf(ch);
      if (digit < 0) throw new Error(`bad source map character ${JSON.stringify(ch)}`);
      value += (digit & 31) << shift;
      if (digit & 32) {
        shift += 5;
      } else {
        fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
        value = 0;
        shift = 0;
      }
    }
    column += fields[0];
    if (fields.length > 1) state.source += fields[1];
    segments.push([column, fields.length > 1 ? state.source : -1]);
  }
  return segments;
}

export const UNMAPPED = '(unmapped)';

/**
 * The generated text per source, in bundle order: `[{ source, text }]` pieces whose texts join to
 * `code` exactly. Columns count UTF-16 units, as source maps do.
 */
export function piecesBySource(code, map) {
  const pieces = [];
  const add = (source, text) => {
    if (!text) return;
    const last = pieces.at(-1);
    if (last?.source === source) last.text += text;
    else pieces.push({ source, text });
  };
  const lines = code.split('\n');
  const mappings = map.mappings.split(';');
  const state = { source: 0 };
  let owner = UNMAPPED;
  lines.forEach((text, i) => {
    const full = i < lines.length - 1 ? `${text}\n` : text;
    let at = 0;
    for (const [column, source] of decodeLine(mappings[i] ?? '', state)) {
      add(owner, full.slice(at, column));
      at = column;
      owner = source < 0 ? UNMAPPED : map.sources[source];
    }
    add(owner, full.slice(at));
  });
  return pieces;
}
