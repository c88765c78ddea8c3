/**
 * Merchant-side 3-D Secure result uploads (docs/gateway.md#3ds-uploads). These name the merchant's
 * id `client-order-id` (hyphen); the control still uses its value. `login` and `control` are added
 * by the client.
 */
import type { RequestBase } from './common.js';

interface ThreeDSUploadBase extends RequestBase {
  /** The gateway's transaction id. */
  orderid: string;
  'client-order-id': string;
}

/** EMV browser fields plus the 3DS Method completion indicator. */
export interface UploadMethodUrlResultRequest extends ThreeDSUploadBase {
  threeDSServerTransID: string;
  /** The browser's real `Accept` header, taken server-side. */
  browserAcceptHeader: string;
  browserIP: string;
  browserJavaEnabled: boolean | 'true' | 'false';
  browserJavascriptEnabled: boolean | 'true' | 'false';
  browserLanguage: string;
  browserColorDepth: number | string;
  browserScreenHeight: number | string;
  browserScreenWidth: number | string;
  /** Minutes, `getTimezoneOffset()` (UTC+1 is -60). */
  browserTZ: number | string;
  browserUserAgent: string;
  /** '01'..'05'. */
  challengeWindowSize: '01' | '02' | '03' | '04' | '05';
  /** Y completed, N not within 10 s, U no method URL. */
  threeDSCompInd: 'Y' | 'N' | 'U';
}

/** The CRes the ACS posted at the end of a 3DS 2 challenge (field `cres`, as in the doc's example body). */
export interface UploadCresResultRequest extends ThreeDSUploadBase {
  cres: string;
}

/**
 * 3DS 1.0.2: the PaRes and MD the ACS posted back. Spelled `paRes` (the doc's field table) and
 * `md` (its example body): docs/gateway.md#3ds-uploads.
 */
export interface UploadParesResultRequest extends ThreeDSUploadBase {
  paRes: string;
  md?: string;
}
