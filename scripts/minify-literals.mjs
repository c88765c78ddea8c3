// Build step of the CDN file (vite.config.ts): the text of Lit's css`` and html`` literals in our
// sources, and of a literal marked /* css */ (`/* css */ \`a { ... }\``), minified. The minifier leaves template
// literals alone, so without this the file ships the sources' indentation. Only whitespace goes
// (and CSS comments); nothing is renamed or reordered, so what the browser builds from a template
// is the same.
import { parseSync } from 'vite';

/** A quoted CSS string (its text is kept as written). */
const CSS_STRING = /('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")/;
/** A string or a comment, whichever starts first: one may hold the other's delimiters. */
const CSS_STRING_OR_COMMENT = new RegExp(`${CSS_STRING.source}|\\/\\*[\\s\\S]*?\\*\\/`, 'g');

/**
 * Whitespace runs in CSS: one space at most, none around `{ } ; , :`, no `;` before `}`; comments
 * gone; and a number's leading zero (`0.5em` is `.5em`).
 */
export function minifyCss(text) {
  // Comments first, read in the same scan as the strings, so that the quotes of
  // `/* "Use another card" */` open no string. A comment becomes a space (it separates what is
  // either side of it), which the next steps squeeze.
  const uncommented = text.replace(CSS_STRING_OR_COMMENT, (_comment, string) => string ?? ' ');
  // Quoted strings keep their text: only the parts between them are touched.
  return uncommented
    .split(CSS_STRING)
    .map((part, i) =>
      i % 2
        ? part
        : part
            .replace(/\s+/g, ' ')
            .replace(/ ?([{};,]) ?/g, '$1')
            .replace(/: /g, ':')
            .replace(/;}/g, '}')
            .replace(/(^|[^\w.-])0\.(\d)/g, '$1.$2'),
    )
    .join('');
}

/**
 * Line breaks and the indentation around them in HTML become one space: the parser makes the
 * same elements and attributes, and a run of spaces renders as one space (no <pre> in ours).
 */
export function minifyHtml(text) {
  return text.replace(/[ \t]*\n\s*/g, ' ');
}

const MINIFIERS = { css: minifyCss, html: minifyHtml };

/** The minifier of a css`` / html`` literal or of one marked /* css *\/, with the literal. */
function literalOf(node, code) {
  if (node.type === 'TaggedTemplateExpression' && Object.hasOwn(MINIFIERS, node.tag?.name))
    return { minify: MINIFIERS[node.tag.name], literal: node.quasi };
  if (node.type === 'TemplateLiteral' && /\/\*\s*css\s*\*\/\s*$/.test(code.slice(0, node.start)))
    return { minify: minifyCss, literal: node };
  return undefined;
}

/** The source with every such literal minified; null when there is none. */
export function minifyLiterals(code, filename) {
  const { program, errors } = parseSync(filename, code);
  if (errors.length) return null;
  // The parser's spans of a template's text: in TypeScript (TS-ESTree) they start on the opening
  // backtick or `}`, in JavaScript (ESTree) just after it.
  const delimiter = /\.[cm]?tsx?$/.test(filename) ? 1 : 0;
  const edits = [];
  visit(program, (node) => {
    const found = literalOf(node, code);
    if (!found) return;
    const { minify } = found;
    const quasis = found.literal.quasis;
    quasis.forEach((q, i) => {
      const start = q.start + delimiter;
      const raw = q.value.raw;
      if (code.slice(start, start + raw.length) !== raw)
        throw new Error(`${filename}: bad offsets`);
      let text = minify(raw);
      // Around an interpolation one space may separate tokens, so only the outer ends are trimmed.
      if (i === 0) text = text.trimStart();
      if (i === quasis.length - 1) text = text.trimEnd();
      if (text !== raw) edits.push({ start, end: start + raw.length, text });
    });
  });
  if (!edits.length) return null;
  let out = code;
  for (const e of edits.sort((a, b) => b.start - a.start)) {
    out = out.slice(0, e.start) + e.text + out.slice(e.end);
  }
  return out;
}

function visit(node, fn) {
  if (Array.isArray(node)) {
    for (const child of node) visit(child, fn);
  } else if (node && typeof node === 'object') {
    if (typeof node.type === 'string') fn(node);
    for (const key in node) if (key !== 'parent') visit(node[key], fn);
  }
}

/**
 * The Vite plugin, for the modules whose id matches `include`: our TypeScript sources by default
 * (Lit's own literals are minified already).
 */
export function minifyLiteralsPlugin(include = /\/widget\/src\/.*\.ts$/) {
  return {
    name: 'pay-checkout:minify-literals',
    apply: 'build',
    // Before the TypeScript transform, which drops the /* css */ comments.
    enforce: 'pre',
    transform(code, id) {
      if (!include.test(id) || !/(?:css|html)`|\/\*\s*css\s*\*\//.test(code)) return null;
      const out = minifyLiterals(code, id);
      return out === null ? null : { code: out, map: null };
    },
  };
}
