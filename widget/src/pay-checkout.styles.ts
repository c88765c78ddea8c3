/**
 * Styles. Every visual decision is a custom property with a default, so a merchant can match their
 * brand without fighting the shadow root; `::part()` covers what properties cannot.
 *
 * Plain text, which the element hands to Lit (with unsafeCSS: see there). The `css` comment in
 * front of the literal marks it as CSS for editors and for the build, which minifies it as it does
 * css`` literals (scripts/minify-literals.mjs).
 */
export const styles = /* css */ `
  :host {
    --_bg: var(--pay-color-background, #fff);
    --_fg: var(--pay-color-text, #1a1d24);
    --_muted: var(--pay-color-muted, #5b6270);
    --_border: var(--pay-color-border, #c9ced8);
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
    color: var(--_fg);
    font: var(--pay-font-size, 16px) / 1.4
      var(--pay-font-family, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
    color-scheme: light dark;
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --_bg: var(--pay-color-background, #16181d);
      --_fg: var(--pay-color-text, #eceef2);
      --_muted: var(--pay-color-muted, #a3a9b5);
      --_border: var(--pay-color-border, #3d424d);
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
  form,
  .result {
    display: grid;
    gap: var(--_space);
    padding: calc(var(--_space) * 1.5);
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) * 1.5);
  }
  fieldset {
    display: grid;
    grid-template-columns: 1fr 1fr;
    gap: var(--_space);
    margin: 0;
    padding: 0;
    border: 0;
    min-width: 0;
  }
  .field {
    display: grid;
    gap: 4px;
    grid-column: 1 / -1;
  }
  .field.half {
    grid-column: auto;
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
  input {
    width: 100%;
    height: var(--pay-input-height, 44px);
    padding: 0 var(--_space);
    color: inherit;
    font: inherit;
    background: var(--_field);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    transition: border-color 0.15s;
  }
  input[name='number'] {
    padding-inline-end: 7.5em;
    font-variant-numeric: tabular-nums;
    letter-spacing: 0.02em;
  }
  input:focus-visible,
  button:focus-visible {
    outline: 2px solid var(--_focus);
    outline-offset: 2px;
  }
  input[aria-invalid='true'] {
    border-color: var(--_error);
  }
  input:disabled {
    opacity: 0.65;
  }
  .brand {
    position: absolute;
    inset-inline-end: 8px;
    top: 50%;
    transform: translateY(-50%);
    padding: 2px 6px;
    font-size: 0.72em;
    font-weight: 700;
    letter-spacing: 0.04em;
    text-transform: uppercase;
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
    border: 1px dashed currentColor;
    border-radius: var(--_radius);
    font-size: 0.8em;
  }
  .notice {
    margin: 0;
    color: var(--_error);
  }
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
    border: 0;
    border-radius: var(--_radius);
    cursor: pointer;
    transition: filter 0.15s;
  }
  button:hover {
    filter: brightness(1.08);
  }
  button[aria-disabled='true'] {
    cursor: progress;
    filter: saturate(0.6);
  }
  .spinner {
    width: 1em;
    height: 1em;
    border: 2px solid currentColor;
    border-right-color: transparent;
    border-radius: 50%;
    animation: spin 0.8s linear infinite;
  }
  @keyframes spin {
    to {
      transform: rotate(360deg);
    }
  }
  .status {
    color: var(--_muted);
    font-size: 0.9em;
    min-height: 1.3em;
  }
  .result h2 {
    margin: 0;
    font-size: 1.2em;
  }
  .result[data-kind='approved'] h2 {
    color: var(--_success);
  }
  .result[data-kind='declined'] h2,
  .result[data-kind='error'] h2 {
    color: var(--_error);
  }
  .result p {
    margin: 0;
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
    border: 0;
    border-radius: calc(var(--_radius) * 1.5);
    box-shadow: 0 24px 64px rgb(0 0 0 / 0.35);
    max-width: calc(100vw - 16px);
    max-height: calc(100dvh - 16px);
  }
  dialog::backdrop {
    background: rgb(10 12 20 / 0.55);
  }
  dialog.full {
    width: 100vw;
    height: 100dvh;
    max-width: none;
    max-height: none;
    margin: 0;
    border-radius: 0;
  }
  dialog.full[open] {
    display: flex;
    flex-direction: column;
  }
  .dialog-head {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: var(--_space);
    padding: 8px 8px 8px var(--_space);
  }
  .dialog-head h2 {
    margin: 0;
    font-size: 1em;
  }
  .close,
  .stop {
    color: var(--_fg);
    background: transparent;
    border: 1px solid var(--_border);
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
  .fallback {
    display: block;
    margin: 8px var(--_space) var(--_space);
    padding: 0;
    min-height: 0;
    font-size: 0.85em;
    color: var(--_muted);
    background: none;
    border: 0;
    text-decoration: underline;
  }
  .confirm,
  .resumed {
    margin: 0;
    padding: 0 var(--_space) var(--_space);
  }
  .confirm p {
    margin: 0 0 8px;
  }
  .confirm button {
    margin-right: 8px;
  }
  @media (prefers-reduced-motion: reduce) {
    .spinner {
      animation: none;
      border-right-color: currentColor;
      opacity: 0.6;
    }
    input,
    button {
      transition: none;
    }
  }
  @media (max-width: 380px) {
    fieldset {
      grid-template-columns: 1fr;
    }
  }
`;
