import assert from 'node:assert/strict';
import { test } from 'node:test';
import { minifyCss, minifyHtml, minifyLiterals } from '../../scripts/minify-literals.mjs';

test('CSS: whitespace and comments go, quoted strings and descendant spaces stay', () => {
  const css = `
    :host {
      --_font: var(--pay-font, system-ui, 'Segoe  UI', sans-serif);
      content: "a ; b";
    }
    /* dark */
    @media (prefers-color-scheme: dark) {
      .result p { margin: 0 0 8px; }
    }
    .a:focus-visible,
    .b .c {
      padding: calc(var(--_space) * 1.5);
    }
  `;
  assert.equal(
    minifyCss(css).trim(),
    ':host{--_font:var(--pay-font,system-ui,\'Segoe  UI\',sans-serif);content:"a ; b"}' +
      '@media (prefers-color-scheme:dark){.result p{margin:0 0 8px}}' +
      '.a:focus-visible,.b .c{padding:calc(var(--_space) * 1.5)}',
  );
});

test('CSS: a comment with quotes in it goes too, and a string with a comment in it stays', () => {
  assert.equal(
    minifyCss(
      '/* "Use another card", and */\n.saved { gap: 8px; }\n/* it\'s */ a::after { content: "/* x */"; }',
    ).trim(),
    '.saved{gap:8px}a::after{content:"/* x */"}',
  );
});

test("CSS: a number's leading zero goes, other digits stay", () => {
  assert.equal(
    minifyCss('a { opacity: 0.5; margin: -0.5em 10.5px 0.25em; color: rgb(0 0 0 / 0.35); }').trim(),
    'a{opacity:.5;margin:-0.5em 10.5px .25em;color:rgb(0 0 0 / .35)}',
  );
});

test('HTML: a line break and its indentation become one space', () => {
  assert.equal(
    minifyHtml(
      '<div\n    class="a"\n    part="b"\n  >\n    <span>x</span><span>y</span>\n  </div>',
    ),
    '<div class="a" part="b" > <span>x</span><span>y</span> </div>',
  );
});

test('only css`` and html`` literals change; a space next to an interpolation stays', () => {
  const source = `import { css, html } from 'lit';
const pad: string = "1px";
export const s = css\`
  a {
    padding: \${pad} 0;
  }
\`;
export const t = (x: string) => html\`<p
  class="a"
>\${x}</p>
\`;
export const u = \`keep
   this\`;`;
  assert.equal(
    minifyLiterals(source, 'x.ts'),
    `import { css, html } from 'lit';
const pad: string = "1px";
export const s = css\`a{padding:\${pad} 0}\`;
export const t = (x: string) => html\`<p class="a" >\${x}</p>\`;
export const u = \`keep
   this\`;`,
  );
});

test('a literal marked /* css */ is minified as CSS; other literals keep theirs', () => {
  const source = `export const s = /* css */ \`
  a {
    color: red;
  }
\`;
export const u = String(\`a {
  b }\`);`;
  assert.equal(
    minifyLiterals(source, 'x.ts'),
    `export const s = /* css */ \`a{color:red}\`;
export const u = String(\`a {
  b }\`);`,
  );
});

test('JavaScript sources too (the ESM build the size bench measures)', () => {
  assert.equal(
    minifyLiterals(`export const t = (x) => html\`<p\n  class="a"\n>\${x}</p>\n\`;`, 'x.js'),
    `export const t = (x) => html\`<p class="a" >\${x}</p>\`;`,
  );
});

test('a file without such literals is left alone', () => {
  assert.equal(minifyLiterals('export const a = `x  y`;', 'x.ts'), null);
});
