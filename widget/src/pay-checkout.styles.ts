/**
 * Styles. Every visual decision is a custom property with a default, so a merchant can match their
 * brand without fighting the shadow root; `::part()` covers what properties cannot.
 *
 * Plain text, which the element hands to Lit (with unsafeCSS: see there). The `css` comment in
 * front of the literal marks it as CSS for editors and for the build, which minifies it as it does
 * css`` literals (scripts/minify-literals.mjs; comments cost nothing in the CDN file).
 *
 * Right to left: the element writes `dir` on its wrapper (or inherits the page's), and every
 * property here is logical (inline-start/end, `start`), so fields, the brand badge, errors, the
 * dialog and its close button mirror by themselves. Physical words appear only for the vertical
 * axis (bottom), which no language turns, and for the card inputs, which are left to right in
 * every language (below).
 *
 * Accessibility (WCAG 2.2 AA, docs/accessibility.md): the default colours give text 4.5:1 and
 * borders, focus rings and the Pay button 3:1 against what they sit on, light and dark; what sits
 * outside the card (status line, test badge) takes the page's own text colour, since it sits on
 * the page's background; in forced colors (Windows contrast themes) transparent borders become
 * visible, which is why buttons and the dialog have one rather than none.
 */
export const styles = /* css */ `
  :host {
    --_bg: var(--pay-color-background, #fff);
    --_fg: var(--pay-color-text, #1a1d24);
    --_muted: var(--pay-color-muted, #5b6270);
    /* 3.3:1 on the background and field: the edge of a field must be seen (1.4.11). */
    --_border: var(--pay-color-border, #868d9a);
    --_field: var(--pay-color-field, #fff);
    --_accent: var(--pay-color-primary, #3056d3);
    --_on-accent: var(--pay-color-on-primary, #fff);
    --_error: var(--pay-color-error, #b42318);
    --_success: var(--pay-color-success, #067647);
    /* The focus ring follows the brand colour unless it is set on its own. */
    --_focus: var(--pay-color-focus, var(--_accent));
    --_radius: var(--pay-radius, 8px);
    --_space: var(--pay-spacing, 12px);
    display: block;
    max-width: var(--pay-max-width, 440px);
    font: var(--pay-font-size, 16px)/1.4
      var(--pay-font-family, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
    color-scheme: light dark;
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --_bg: var(--pay-color-background, #16181d);
      --_fg: var(--pay-color-text, #eceef2);
      --_muted: var(--pay-color-muted, #a3a9b5);
      /* 4.2:1 on the background, 3.7:1 on the field. */
      --_border: var(--pay-color-border, #737b89);
      --_field: var(--pay-color-field, #1f2229);
      --_accent: var(--pay-color-primary, #7b9cff);
      --_on-accent: var(--pay-color-on-primary, #0d1020);
      --_error: var(--pay-color-error, #ff8a80);
      --_success: var(--pay-color-success, #6fdc9c);
    }
  }
  :host([hidden]) {
    display: none;
  }
  * {
    box-sizing: border-box;
  }
  h2,
  p {
    margin: 0;
  }
  /* The card and the result have our background, so our text colour; the status line and the
     test badge sit on the page background, so they keep the text colour of the page (inherited). */
  form,
  .result {
    display: grid;
    gap: var(--_space);
    padding: calc(var(--_space) * 1.5);
    color: var(--_fg);
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) * 1.5);
  }
  /* Expiry and security code side by side while both get 9em, one under the other below that
     (a phone at 320 px, 400 % zoom, a narrow column): the width of the element decides, not
     the viewport. The other fields take a line each. */
  fieldset {
    display: flex;
    flex-wrap: wrap;
    gap: var(--_space);
    margin: 0;
    padding: 0;
    border: 0;
    min-width: 0;
  }
  .field {
    display: grid;
    gap: 4px;
    flex: 100%;
  }
  .field.half {
    flex: 1 9em;
  }
  /* The shopper's contact and address parts are named by their legend, a line of its own. */
  legend {
    padding: 0;
    margin-bottom: 4px;
    font-weight: 600;
  }
  label {
    font-weight: 600;
    font-size: 0.875em;
  }
  .hint {
    color: var(--_muted);
    font-size: 0.8em;
  }
  .wrap {
    position: relative;
  }
  input,
  select {
    width: 100%;
    height: var(--pay-input-height, 44px);
    padding: 0 var(--_space);
    color: inherit;
    font: inherit;
    background: var(--_field);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  /* The grey of the browser is 3.5:1 on the dark field; the muted colour is 4.5:1 or more on both. */
  ::placeholder {
    color: var(--_muted);
  }
  input[name=number] {
    font-variant-numeric: tabular-nums;
    letter-spacing: 0.02em;
  }
  /* Right to left, the card number, expiry and code stay left to right inside their inputs
     (dir=ltr: 4000 0000 keeps its order), but the text keeps to the side of the label, the right,
     as Arabic and Hebrew checkouts and the number fields of the platforms do: the caret starts
     under the label and the digits line up with the name field. text-align: end would mean the
     left in an LTR input, hence right (match-parent would say it, but Chromium resolves it
     against the input itself).
     Two selectors, as two rules (a browser without :dir() drops only its own): the wrapper dir
     the element writes for an RTL language, and the page dir the element inherits. Not :dir()
     inside the shadow tree: Chromium keeps its first answer there when the page changes its dir
     or moves the element, where the host answers right. */
  [dir=rtl] input {
    text-align: right;
  }
  :host(:dir(rtl)) input {
    text-align: right;
  }
  input:focus-visible,
  select:focus-visible,
  button:focus-visible {
    outline: 2px solid var(--_focus);
    outline-offset: 2px;
  }
  [aria-invalid=true] {
    border-color: var(--_error);
  }
  input:disabled,
  select:disabled {
    opacity: 0.65;
  }
  /* A saved card to choose, "Use another card", and the box to save a card: one per line, the
     control a 24 px target beside its words (the input rule above is for the text fields). */
  .saved,
  .consent {
    display: flex;
    flex: 100%;
    gap: 8px;
    align-items: center;
    font-weight: 400;
  }
  .saved input,
  .consent input {
    flex: none;
    width: 24px;
    height: 24px;
    accent-color: var(--_accent);
  }
  /* The brand badge sits at the inline end of the label line, over the end of the number field,
     not in it: the digits get the whole field, so 16 of them fit at 320 px (a badge in the field
     took 7.5em from it, and American Express is wider than that). */
  .brand {
    position: absolute;
    inset-inline-end: 0;
    bottom: calc(100% + 4px);
    padding: 2px 6px;
    font-size: 0.72em;
    font-weight: 700;
    color: var(--_muted);
    border: 1px solid var(--_border);
    border-radius: 4px;
  }
  .error {
    color: var(--_error);
    font-size: 0.85em;
    min-height: 1.2em;
  }
  .error:empty {
    min-height: 0;
  }
  .test {
    display: inline-block;
    margin: 0 0 0.5em;
    padding: 0 0.5em;
    border: 1px dashed;
    border-radius: var(--_radius);
    font-size: 0.8em;
  }
  .notice {
    color: var(--_error);
  }
  /* A transparent border, not none: forced colors paint it, so the button keeps its edge. */
  button {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    gap: 8px;
    min-height: 48px;
    padding: 0 calc(var(--_space) * 1.5);
    font: inherit;
    font-weight: 650;
    color: var(--_on-accent);
    background: var(--_accent);
    border: 1px solid transparent;
    border-radius: var(--_radius);
    cursor: pointer;
  }
  button:hover {
    filter: brightness(1.08);
  }
  button[aria-disabled=true] {
    cursor: progress;
    filter: saturate(0.6);
  }
  /* In forced colors the gap would be painted too, leaving a ring that seems not to turn:
     preserve-parent-color keeps it transparent, the ring in the forced text colour. */
  .spinner {
    width: 1em;
    height: 1em;
    border: 2px solid;
    border-top-color: transparent;
    border-radius: 50%;
    animation: spin 0.8s linear infinite;
    forced-color-adjust: preserve-parent-color;
  }
  @keyframes spin {
    to {
      transform: rotate(360deg);
    }
  }
  .status {
    font-size: 0.9em;
    min-height: 1.3em;
  }
  .result h2 {
    font-size: 1.2em;
  }
  .result[data-kind=approved] h2 {
    color: var(--_success);
  }
  .result[data-kind=declined] h2,
  .result[data-kind=error] h2 {
    color: var(--_error);
  }
  .sr-only,
  .method-frame {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    border: 0;
    white-space: nowrap;
  }
  dialog {
    padding: 0;
    color: var(--_fg);
    background: var(--_bg);
    border: 1px solid transparent;
    border-radius: calc(var(--_radius) * 1.5);
    box-shadow: 0 24px 64px #00000059;
    max-width: calc(100vw - 16px);
    max-height: calc(100dvh - 16px);
  }
  dialog::backdrop {
    background: #0a0c148c;
  }
  /* Full screen needs no edge: the frame gets the whole width. */
  dialog.full {
    width: 100vw;
    height: 100dvh;
    max-width: none;
    max-height: none;
    margin: 0;
    border: 0;
    border-radius: 0;
  }
  dialog.full[open] {
    display: flex;
    flex-direction: column;
  }
  /* The title at the inline start, ✕ at the inline end (flex follows the direction). */
  .dialog-head {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: var(--_space);
    padding: 8px var(--_space);
  }
  .dialog-head h2 {
    font-size: 1em;
  }
  .close,
  .stop {
    color: var(--_fg);
    background: none;
    border-color: var(--_border);
  }
  .close,
  .confirm button {
    min-height: 36px;
    padding: 0 12px;
  }
  .challenge-frame {
    display: block;
    border: 0;
    background: #fff;
    max-width: 100%;
  }
  dialog.full .challenge-frame {
    flex: 1;
  }
  /* A link-like button, still a 24 px target (2.5.8). */
  .fallback {
    display: block;
    margin: 8px var(--_space) var(--_space);
    padding: 0;
    min-height: 24px;
    font-size: 0.85em;
    color: var(--_muted);
    background: none;
    border: 0;
    text-decoration: underline;
  }
  .confirm,
  .resumed,
  dialog .time {
    padding: 0 var(--_space) var(--_space);
  }
  .confirm p {
    margin-bottom: 8px;
  }
  .confirm button {
    margin-inline-end: 8px;
  }
  @media (prefers-reduced-motion: reduce) {
    .spinner {
      animation: none;
      border-top-color: currentColor;
      opacity: 0.6;
    }
  }
`;
