/**
 * Collects the EMV 3DS browser fields (the backend adds the Accept header, IP and user agent, and
 * the two every browser that runs this element answers alike: javaEnabled false, as the HTML
 * standard makes navigator.javaEnabled() answer, and javascriptEnabled true).
 */
import type { BrowserInfo, ChallengeWindowSize } from '../../../contract/api-types.js';
import { SMALL_VIEWPORT_PX, WINDOW_SIZES } from '../../../contract/three-ds.js';

/**
 * The window size to ask for: the merchant's choice, else by viewport. Phones get full screen
 * (a 390 px frame in a 375 px viewport scrolls sideways); large screens get 500x600, which fits
 * more bank pages without scrolling than the 390x400 default of other widgets.
 */
export function chooseWindowSize(
  viewportWidth: number,
  viewportHeight: number,
  requested?: ChallengeWindowSize,
): ChallengeWindowSize {
  if (requested && requested in WINDOW_SIZES) return requested;
  if (viewportWidth < SMALL_VIEWPORT_PX) return '05';
  if (viewportWidth >= 600 && viewportHeight >= 700) return '03';
  return '02';
}

/**
 * Fits a size the ACS was given into the current viewport: a frame that would not fit on this
 * screen is shown full screen instead, as the EMV size is only a request.
 */
export function fitWindowSize(
  size: ChallengeWindowSize,
  viewportWidth: number,
  viewportHeight: number,
): ChallengeWindowSize {
  const dims = WINDOW_SIZES[size];
  if (!dims) return size;
  // 32 px leaves room for the dialog's own border and padding.
  return dims[0] + 32 > viewportWidth || dims[1] + 96 > viewportHeight ? '05' : size;
}

export function collectBrowserInfo(
  win: Window,
  challengeWindowSize: ChallengeWindowSize,
): BrowserInfo {
  const nav = win.navigator;
  return {
    // As the screen reports it: the backend rounds it onto the EMV set (emvColorDepth).
    colorDepth: win.screen.colorDepth,
    // As the browser reports it: the backend makes it an EMV tag (emvLanguage, language.ts) for
    // every request it accepts, so the widget does not do it twice.
    language: nav.language || 'en',
    screenHeight: win.screen.height,
    screenWidth: win.screen.width,
    // Minutes, positive west of UTC (UTC+1 gives -60), exactly as EMV's browserTZ wants it.
    timezoneOffset: new Date().getTimezoneOffset(),
    challengeWindowSize,
  };
}
