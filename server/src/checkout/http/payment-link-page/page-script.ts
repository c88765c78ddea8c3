/**
 * The link page's own script, a file (the page has no inline script): once the element says the
 * payment succeeded, the page shows its Continue link (the link's `returnUrl`), which it renders
 * hidden. Fixed text, pinned by its SRI hash in the page.
 */
import { sri } from '../../../sri.js';

export const PAGE_SCRIPT = `document.addEventListener('pay-success', function () {
  var next = document.getElementById('continue');
  if (next) next.hidden = false;
});
`;

export const PAGE_SCRIPT_INTEGRITY = sri(PAGE_SCRIPT);

/** Under the page's own path: `/pay/assets/…` is no link id (an id is one path segment). */
export const PAGE_SCRIPT_PATH = '/assets/link-page.js';
