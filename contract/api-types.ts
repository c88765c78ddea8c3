/**
 * The widget API: the contract between `<pay-checkout>` and the companion backend.
 *
 * Types only (no runtime code), so the backend can `import type` them and both sides compile
 * against one definition. Every route is relative to the element's `backend` attribute and takes
 * `Authorization: Bearer <session token>` (the JWT the merchant's server got from
 * `POST /v1/checkout-sessions`). Bodies are JSON. Errors answer `{ error: WidgetApiError }`.
 *
 * | route                          | body                 | answer        |
 * |--------------------------------|----------------------|---------------|
 * | GET  /widget/session           | -                    | SessionView   |
 * | POST /widget/pay               | PayRequest           | NextAction    |
 * | POST /widget/method-result     | MethodResultRequest  | NextAction    |
 * | GET  /widget/next?wait=SECONDS | -                    | NextAction    | (long poll, wait <= 25)
 * | POST /widget/cancel            | CancelRequest        | NextAction    |
 * | POST /widget/hosted            | HostedPayRequest     | NextAction    | (hosted mode: a `redirect`)
 * | POST /widget/extend            | ExtendRequest        | ExtendAnswer  | (more time for an open session)
 *
 * `/widget/next` answers as soon as the order's status or next action changes, or after `wait`
 * seconds. A browser step (`method`, `challenge`, `3ds1`) is answered at once, so a page that
 * reloads resumes it; a widget that is showing a step adds `&showing=ACTION` (e.g.
 * `showing=challenge`) to long-poll alongside it: the answer then comes when that step is no
 * longer the next one (the backend keeps asking the gateway meanwhile, every few seconds, so a
 * lost return message still ends the step). A gateway page (`html`, `redirect`) is held like a
 * wait; `wait=0` answers where the order stands now.
 *
 * Pages the backend serves to frames and to the top level (not CORS):
 * - `GET /launch/{ref}/{key}` (an action's `launchUrl`): the launcher page. It posts the step's
 *   form (3DS Method, CReq, PaReq) or frames the gateway's page, from the backend's origin, into
 *   a frame of its own; at the top level (redirect mode) it posts to `_self`, once per tab. The
 *   merchant page frames only this page, so its CSP needs only the backend's origin.
 * - `POST /return/{ref}`: the order's `redirect_url` and 3DS Method notification URL. It answers a
 *   tiny page that `postMessage`s a `ReturnMessage` to every ancestor (target: the merchant page's
 *   exact origin) when framed, and otherwise sends the shopper to the session's `returnUrl`.
 */
import type { BrandId } from './card/brands.js';

export type Intent = 'sale' | 'preauth';

/** How the shopper pays: `direct` (the card form in the page) or `hosted` (the gateway's page). */
export type PayMode = 'direct' | 'hosted';

/** Gateway transaction statuses. The first four are final. */
export type OrderStatus = 'approved' | 'declined' | 'error' | 'filtered' | 'processing' | 'unknown';

export type SessionState =
  | 'open' // show the form: nothing paid yet, or the last attempt failed or was left (`order`)
  | 'paying' // a payment is under way (possibly waiting on 3-D Secure): resume with /widget/next
  | 'completed' // approved, or the last attempt allowed failed: /widget/next answers `final`
  | 'cancelled' // the shopper left the bank page of the last attempt allowed
  | 'expired';

export type ChallengeWindowSize = '01' | '02' | '03' | '04' | '05';

/**
 * Whether a new card is kept for the shopper's next visit (a card reference made once the payment
 * is approved): `ask` (the element shows an unticked "Save this card for next time" box and sends
 * the shopper's choice as `CardPayRequest.saveCard`), `always` (the merchant has the shopper's
 * agreement elsewhere: kept whatever the box says; the element shows none), `never`.
 */
export type SaveCardMode = 'ask' | 'always' | 'never';

/**
 * What the element asks the shopper, per group of the gateway's sale fields (the session's
 * `collect` setting in the merchant API):
 * - `auto` (the default): ask when the session's customer lacks what the gateway needs of it;
 * - `always`: ask, prefilled with what the merchant sent;
 * - `never`: never ask (the merchant guarantees the data: a session lacking it is a 400 at its
 *   creation).
 */
export type CollectMode = 'auto' | 'always' | 'never';

/** The groups of shopper data the element can ask for. */
export type CollectGroup = 'email' | 'phone' | 'billingAddress';

/** A billing address as the shopper types it (or the merchant sent it). */
export interface BillingAddress {
  /** ISO 3166-1 alpha-2, capitals, e.g. "DE". */
  country: string;
  /** The street line (the gateway's `address1`), at most 50 characters. */
  address1: string;
  /** At most 50 characters. */
  city: string;
  /** The postal code (the gateway's `zip_code`), at most 10 characters. */
  zipCode: string;
  /** Two capitals (the gateway's `state`): required where the country needs one (US, CA, AU),
   * absent elsewhere. */
  state?: string;
}

/**
 * What the shopper typed in the element's contact and billing-address parts: only the groups the
 * session asks for (`SessionView.collect`), each whole. The backend validates it with the rules
 * of a merchant-sent customer (a 400 `validation` whose `field` is the path, e.g.
 * `shopper.billingAddress.zipCode`), normalises the phone to E.164, keeps it with the order and
 * sends it in the sale or preauth.
 */
export interface ShopperDetails {
  email?: string;
  /** As typed: the backend parses it (with the billing country as the default region) and sends
   * E.164 (`+4915112345678`). */
  phone?: string;
  billingAddress?: BillingAddress;
}

/** Whether a saved card is paid with its security code typed again (`SavedCardPayRequest.cvc`). */
export type SavedCardCvc = 'required' | 'optional';

/**
 * A card the merchant offers the returning shopper, as the gateway describes its card reference
 * (get-card-info). The reference itself never reaches the browser: `handle` stands for it.
 */
export interface SavedCardView {
  /** Opaque, and valid in this session only: what `SavedCardPayRequest.savedCard` names. */
  handle: string;
  /** As the gateway names brands (`VISA`, `MASTERCARD`, ...; `UNKNOWN` when it names none). */
  brand: string;
  /** Ours for it (card/brands.ts), when the gateway's name is one we know: its display name and
   * security code length. */
  brandId?: BrandId;
  last4: string;
  /** "01".."12" */
  expMonth: string;
  /** Four digits, e.g. "2030". */
  expYear: string;
  /** The name on the card as the gateway holds it ('' when it holds none). */
  holder: string;
  /** Past its expiry month: show it, not selectable; the backend refuses to charge it. */
  expired: boolean;
  /**
   * The groups of `SessionView.collect` this card's first payment already gave (the backend kept
   * them with the card): paying with this card, the element does not ask for them, and the
   * backend sends what it kept. Absent: none.
   */
  knows?: CollectGroup[];
}

export interface SessionView {
  id: string;
  /** The merchant's order id (the gateway's `client_orderid`). */
  orderId: string;
  /** Decimal string in major units, e.g. "10.42". */
  amount: string;
  /** Integer minor units, e.g. 1042. */
  amountMinor: number;
  /** ISO 4217 alphabetic code. */
  currency: string;
  description: string;
  intent: Intent;
  /** The modes the merchant allows for this session; the element uses only these. */
  modes: PayMode[];
  state: SessionState;
  /** ISO 8601. */
  expiresAt: string;
  /**
   * Milliseconds left until `expiresAt` when the backend answered: the element counts from its
   * own clock with it, so a device whose clock is wrong still warns in time. Absent: counted from
   * `expiresAt`.
   */
  expiresInMs?: number;
  /** How many more times `POST /widget/extend` gives the session more time. Absent: none. */
  extensionsLeft?: number;
  /** Present once a payment has started. */
  order?: OrderView;
  /** The backend's gateway is a sandbox: no real payment is made (the element says so). */
  testMode?: true;
  /** Whether the element offers to keep a new card. This backend always sends it; absent: `never`. */
  saveCard?: SaveCardMode;
  /**
   * The cards offered for this payment, most recent first, above "Use another card" (the first
   * one not expired selected by default). This backend always sends it; absent: none.
   */
  savedCards?: SavedCardView[];
  /** Whether a saved card needs its security code. This backend always sends it; absent: `required`. */
  savedCardCvc?: SavedCardCvc;
  /**
   * The groups the element must ask the shopper for before a payment, from the session's
   * `collect` setting and what its customer lacks; the pay request's `shopper` must carry each of
   * them, whole. This backend always sends it; absent or empty: ask nothing.
   */
  collect?: CollectGroup[];
  /**
   * What the merchant sent of the groups in `collect` (an `always` group, or part of an address):
   * the element's fields start with these values. Only for groups in `collect`.
   */
  prefill?: ShopperDetails;
  /** The country the billing-address part starts on when `prefill` names none: the merchant's
   * hint (ISO 3166-1 alpha-2); absent: the element takes the browser's region. */
  countryHint?: string;
}

/** Why a bank declined, as a shopper can act on it (the element's `decline.<reason>` words). */
export type DeclineReason = 'funds' | 'expired' | 'not-permitted' | 'limit' | 'cvc' | 'try-later';

export interface OrderView {
  /** The merchant's order id. */
  orderId: string;
  /** This payment attempt's id at the gateway (`client_orderid`): the order id for the first
   * attempt, `<orderId>-2`, `<orderId>-3`, ... for the next ones. */
  attemptId: string;
  /** 1 for the session's first payment attempt, 2 for the next, ... */
  attempt: number;
  /** How many more attempts the session takes should this one fail or be left (0: none). */
  attemptsLeft: number;
  /** The gateway's `orderid`, once known. */
  gatewayOrderId?: string;
  status: OrderStatus;
  amount: string;
  amountMinor: number;
  currency: string;
  intent: Intent;
  /** Never the full number: brand, last four, and `masked` (at most first six + last four, at
   * least six digits hidden: `400000******0002`, `50******0009`). */
  card?: { brand: string; last4: string; masked: string };
  /**
   * The gateway's reason for a decline or error, when it gave one; never for an attempt paid with
   * a saved card, whose gateway text may name the card reference (the merchant API has it).
   */
  reason?: string;
  errorCode?: string;
  /**
   * What the shopper can be told of a decline, from the gateway's `errorCode` (the backend knows
   * the codes); absent when the code says nothing a shopper can act on, or points at fraud.
   */
  declineReason?: DeclineReason;
  /** The shopper left this attempt's bank page: the session takes another attempt meanwhile. */
  abandoned?: true;
}

/** EMV 3DS browser fields the widget collects (the backend adds Accept header, IP, user agent). */
export interface BrowserInfo {
  /** `screen.colorDepth` as the browser reports it; the backend rounds it down onto the EMV set
   * 1, 4, 8, 15, 16, 24, 32, 48 (24 when unusable). */
  colorDepth: number;
  /** What navigator.javaEnabled() answers in every browser (the HTML standard makes it false);
   * absent: false, which the backend sends. */
  javaEnabled?: boolean;
  /** Absent: true, which the backend sends (the element runs). */
  javascriptEnabled?: true;
  /** navigator.language as the browser reports it; the backend makes it an EMV tag of 1-8
   * chars (BCP 47) with emvLanguage (server/src/checkout/widget-api/emv-language.ts). */
  language: string;
  screenHeight: number;
  screenWidth: number;
  /** new Date().getTimezoneOffset(): minutes, positive west of UTC. */
  timezoneOffset: number;
  challengeWindowSize: ChallengeWindowSize;
}

export interface CardInput {
  /** Digits only (the widget strips spaces). */
  number: string;
  /** "01".."12" */
  expMonth: string;
  /** Four digits, e.g. "2030". */
  expYear: string;
  cvc: string;
  holder: string;
}

/** Pay with a card typed in the form. */
export interface CardPayRequest {
  card: CardInput;
  browser: BrowserInfo;
  /**
   * The shopper ticked "Save this card for next time" (absent: false). Only a session whose
   * `saveCard` is `ask` takes `true` as consent (`always` keeps the card anyway); `never` refuses
   * it (`validation`, field `saveCard`). The card is kept only once the payment is approved.
   */
  saveCard?: boolean;
  /** What the shopper typed for the session's `collect` groups; required when it is not empty. */
  shopper?: ShopperDetails;
}

/**
 * Pay with a card the session offers, by its security code: the backend charges its card
 * reference (the gateway's make-rebill, with `cvv2` and the shopper's IP). Declines, 3-D Secure
 * and the next attempt go as with a typed card.
 */
export interface SavedCardPayRequest {
  /** `SavedCardView.handle` of this session; anything else is `saved-card-unknown`. */
  savedCard: string;
  /**
   * 3 or 4 digits; required unless the session's `savedCardCvc` is `optional` (missing where it
   * is required: `validation`, field `cvc`). Sent to the gateway as `cvv2`, kept nowhere.
   */
  cvc?: string;
  browser: BrowserInfo;
  /** The session's `collect` groups this card does not know (`SavedCardView.knows`). */
  shopper?: ShopperDetails;
}

/** Pay on the gateway's hosted form: its page takes the card, the element the contact and
 * address the session's `collect` names (an empty body when it names none). */
export interface HostedPayRequest {
  shopper?: ShopperDetails;
}

export type PayRequest = CardPayRequest | SavedCardPayRequest;

export interface MethodResultRequest {
  threeDSCompInd: 'Y' | 'N' | 'U';
  browser: BrowserInfo;
}

/**
 * More time for an open session, asked by the shopper warned of its end (WCAG 2.2.1). Refused
 * while a payment is under way or its outcome pending (409 `conflict`), for an expired session
 * (410 `session-expired`), and once the session had its extensions or reached its longest life
 * (409 `conflict`); a refusal changes nothing.
 */
export interface ExtendRequest {
  /**
   * The session's expiry the shopper was warned of (ISO 8601). When it has moved already (a
   * second click, another tab), the answer is the session as it stands, not extended again.
   */
  expiresAt: string;
}

export interface ExtendAnswer {
  /**
   * A session token that lasts as long as the session now does: the old one still expires at the
   * old time, so the element uses this one from now on.
   */
  token: string;
  /** ISO 8601: the session's expiry now. */
  expiresAt: string;
  /** Milliseconds left until `expiresAt`, as SessionView's. */
  expiresInMs: number;
  extensionsLeft: number;
}

export interface CancelRequest {
  reason: 'challenge-cancelled' | 'shopper-left';
}

/** What the widget must do next. Every variant names the order it belongs to. */
export type NextAction =
  /** Run the 3DS Method: load `launchUrl` in a hidden iframe (it POSTs `threeDSMethodData` to
   * `methodUrl`), wait for the notification message at most `timeoutMs`, then POST
   * /widget/method-result. Without `methodUrl` (and `launchUrl`) report `U` at once. */
  | {
      action: 'method';
      order: OrderView;
      methodUrl?: string;
      methodData?: string;
      launchUrl?: string;
      timeoutMs: number;
    }
  /** 3DS 2 challenge: load `launchUrl` in the challenge frame (it POSTs `creq` and
   * `threeDSSessionData` to `acsUrl`), or at the top level in redirect mode. */
  | {
      action: 'challenge';
      order: OrderView;
      acsUrl: string;
      creq: string;
      threeDSSessionData?: string;
      /** The size inside the CReq (what the ACS was told), else the size the browser asked for. */
      challengeWindowSize: ChallengeWindowSize;
      launchUrl: string;
    }
  /** 3DS 1.0.2: load `launchUrl` in the challenge frame (it POSTs `PaReq`, `MD`, `TermUrl` to `acsUrl`). */
  | {
      action: '3ds1';
      order: OrderView;
      acsUrl: string;
      paReq: string;
      md: string;
      termUrl: string;
      launchUrl: string;
    }
  /** Send the shopper to `url`: in `hosted` mode the hosted form (the whole page); in card mode the
   * gateway's own 3-D Secure page (the spec's `redirect_url`, the family's `redirect-to`), which
   * the widget shows in its challenge dialog by loading `launchUrl` (our launcher page frames
   * `url`) unless its challenge mode is `redirect`. Either way the gateway brings the shopper back
   * to the order's return page. */
  | { action: 'redirect'; order: OrderView; url: string; launchUrl?: string }
  /** The gateway's own 3DS page (usually a self-submitting form), served by the backend at `url`
   * under a strict CSP: load `launchUrl` in the challenge frame (it frames `url`), or at the top
   * level in redirect mode. The gateway's markup never reaches the widget. */
  | { action: 'html'; order: OrderView; url: string; launchUrl: string }
  /** Nothing to do yet: call GET /widget/next again (it long-polls). */
  | { action: 'wait'; order: OrderView; retryAfterMs: number }
  /** The order reached a final status (or the session was cancelled). */
  | { action: 'final'; order: OrderView };

/** The page at /return/{ref} posts this to `window.parent`. */
export interface ReturnMessage {
  source: 'pay-checkout';
  type: 'method-complete' | 'challenge-complete' | 'final';
  /** The payment attempt's id (`OrderView.attemptId`): a late page of an earlier attempt is not
   * taken for the current one's. */
  orderId: string;
}

/** Every code the backend's error body can carry on a widget route (the backend's own error type
 * is built on this union, so a code it sends and the element does not know is a compile error). */
export type WidgetApiErrorCode =
  | 'validation' // a field is wrong: `field` names it
  | 'unauthorized' // missing, malformed or expired session token
  | 'session-expired'
  | 'forbidden' // the request's Origin is not an allowed merchant page
  | 'not-found' // no such route
  | 'conflict' // the session's state does not allow this (e.g. already paid)
  | 'attempts-exhausted' // the session took its last payment attempt: no further one is sent
  | 'payment-in-flight' // 409 on /widget/cancel: the attempt is on its way to the gateway, no bank page shown yet: follow it
  | 'saved-card-unknown' // 400 (`savedCard`): not a card this session offers; nothing was sent
  | 'saved-card-expired' // 409 (`savedCard`): the saved card has expired; nothing was sent
  | 'payload-too-large'
  | 'rate-limited'
  | 'gateway' // the gateway refused or failed; `message` says why
  | 'unavailable' // the backend cannot serve now (its store is down): try again later
  | 'internal';

export interface WidgetApiError {
  code: WidgetApiErrorCode;
  message: string;
  field?: string;
  requestId?: string;
}
