/**
 * `browserColorDepth` for EMV: one of 1, 4, 8, 15, 16, 24, 32 or 48. Screens report others (30-bit
 * panels say 30), so the browser's value is rounded down onto that set, 24 when it says nothing
 * usable: a colour depth is no reason to refuse a payment. Pure. Applied to the `colorDepth` of
 * every BrowserInfo the backend accepts (schemas.ts); the widget sends `screen.colorDepth` as it
 * is, so this code stays out of the CDN file (as emvLanguage does for the language).
 */
import { COLOR_DEPTHS } from '../../../../../contract/three-ds.js';

export function emvColorDepth(depth: number): number {
  return (Number.isFinite(depth) && COLOR_DEPTHS.findLast((d) => d <= depth)) || 24;
}
