import { html, nothing, type TemplateResult } from 'lit-html';
import type {
  ChallengeWindowSize,
  HostedPayRequest,
  OrderView,
  PayRequest,
  SessionView,
} from '../../contract/api-types.js';
import type { BrandId } from '../../contract/card/brands.js';
import { type Api, ApiError, createApi } from './api.js';
import { CardForm } from './card/card-form.js';
import { parseExpiry } from './card/expiry.js';
import { digitsOnly } from './card/format.js';
import { brandOfSaved, SavedCards } from './card/saved-cards.js';
import { ElementBase, type PropertyOptions, type PropertyValues } from './element-base.js';
import { browserEnv, type Env } from './env.js';
import type { PayEventDetail, PayEventName, PayStep } from './events.js';
import { focusAfterUpdate } from './focus.js';
import { en, type StringKey } from './i18n/index.js';
import { LocalizeController } from './i18n/localize.js';
import { failureOf, type Outcome, outcomeOf, type ResultKind } from './outcome.js';
import { styles } from './pay-checkout.styles.js';
import { ShopperForm } from './shopper/shopper-form.js';
import { askedGroups } from './shopper/validate.js';
import { type ChallengeMode, FlowController, type FlowEnd } from './three-ds/flow.js';
import { clockTime, SessionTime } from './time-limits.js';

export type PayMode = SessionView['modes'][number];
export type { ChallengeMode };

/**
 * Where the element is, one state at a time (Lit's TaskStatus is the model): `loading` the session
 * (and the words), `ready` for Pay, `paying` (a payment under way, the form busy), `ended` (the
 * result panel, `_result`).
 */
type Status = 'loading' | 'ready' | 'paying' | 'ended';

/**
 * `<pay-checkout>`: a card payment form that talks to the companion backend only, and walks the
 * shopper through 3-D Secure (2.x Method and challenge, 1.0.2, gateway pages) to a final result.
 *
 * @summary Card checkout with 3-D Secure, backed by the pay-checkout companion backend.
 *
 * @fires pay-ready - The session is loaded; detail `{ orderId, amount, currency, mode }`.
 * @fires pay-change - A card field changed; detail `{ complete, brand, fields }` (validity only, never values).
 * @fires pay-submit - A payment starts; detail `{ mode, brand, last4 }`.
 * @fires pay-3ds-method - The 3DS Method starts (`{ phase: 'start' }`) and ends (`{ phase: 'complete', compInd }`, compInd Y, N or U).
 * @fires pay-challenge - The challenge dialog opens (`{ phase: 'open', version, windowSize }`) or closes (`{ phase: 'close', reason }`).
 * @fires pay-redirect - The page is about to leave for `url`; detail `{ url, reason }` (hosted, gateway, challenge).
 * @fires pay-status - Each step of the payment; detail `{ step, orderId?, status?, message? }`.
 * @fires pay-success - The payment is approved; detail `{ orderId, gatewayOrderId, amount, amountMinor, currency, card }` (card masked).
 * @fires pay-declined - The gateway declined (or filtered, or errored) the attempt; detail `{ orderId, status, reason, errorCode, attemptsLeft }`. With attempts left the form is back for another card.
 * @fires pay-error - The payment could not go on; detail `{ code, message, field?, attemptsLeft? }`; codes: network, session-expired, validation, three-ds-timeout, challenge-cancelled (also a bank page left), conflict, attempts-exhausted, rate-limited, gateway, forbidden, not-found, payload-too-large, unavailable, internal, saved-card-unknown and saved-card-expired (a saved card the session does not offer, or past its expiry), payment-in-flight (a cancel before any bank page was shown: the payment goes on); and `unsafe-url`: the backend named a URL that is not https (nor http to loopback), which is not followed while the widget keeps following the order. `attemptsLeft` after an attempt ended unanswered: with attempts left the form is back.
 *
 * @csspart form - The card form.
 * @csspart field - Every field wrapper; also `field-number`, `field-expiry`, `field-cvc`, `field-name`.
 * @csspart label - Every label; also `label-number`, `label-expiry`, `label-cvc`, `label-name`.
 * @csspart input - Every input; also `input-number`, `input-expiry`, `input-cvc`, `input-name`.
 * @csspart hint - The hints under the expiry and security code labels.
 * @csspart error - Every field error; also `error-number`, `error-expiry`, `error-cvc`, `error-name`.
 * @csspart brand - The detected card brand badge.
 * @csspart button - The Pay button (and the Try again button).
 * @csspart status - The polite live region with the current step.
 * @csspart result - The final result panel.
 * @csspart test-badge - "Test mode", shown when the backend's gateway is a sandbox.
 * @csspart notice - Why the form is back (the last attempt was declined, cancelled or left), and the warning that the session is about to end.
 * @csspart saved-cards - The saved cards a session offers (a fieldset above the form).
 * @csspart saved-card - Each choice in it, "Use another card" included.
 * @csspart save-card - The "Save this card for next time" box, when the session asks.
 * @csspart dialog - The 3-D Secure challenge dialog.
 * @csspart challenge-frame - The bank's challenge iframe.
 *
 * @cssprop [--pay-color-background=#ffffff] - Form background.
 * @cssprop [--pay-color-text=#1a1d24] - Text colour.
 * @cssprop [--pay-color-muted=#5b6270] - Hints and status text.
 * @cssprop [--pay-color-border=#868d9a] - Field and card borders.
 * @cssprop [--pay-color-field=#ffffff] - Input background.
 * @cssprop [--pay-color-primary=#3056d3] - Pay button background.
 * @cssprop [--pay-color-on-primary=#ffffff] - Pay button text.
 * @cssprop [--pay-color-error=#b42318] - Errors.
 * @cssprop [--pay-color-success=#067647] - Approved result.
 * @cssprop [--pay-color-focus=var(--pay-color-primary)] - Focus ring (the primary colour unless set).
 * @cssprop [--pay-radius=8px] - Corner radius.
 * @cssprop [--pay-spacing=12px] - Base spacing.
 * @cssprop [--pay-font-family=system-ui] - Font.
 * @cssprop [--pay-font-size=16px] - Base font size (16 px keeps iOS from zooming into inputs).
 * @cssprop [--pay-input-height=44px] - Input height.
 * @cssprop [--pay-max-width=440px] - Maximum width of the element.
 */
export class PayCheckoutElement extends ElementBase {
  static override styles = styles;

  // Each reactive property's options (element-base.ts, as Lit's); the fields below declare them,
  // with their defaults.
  // (The compiler keeps class fields as plain assignments, useDefineForClassFields: false, so they
  // go through the accessors; a field without a default is `declare`d, which emits nothing.)
  // `{}`: an attribute of the property's name in lower case, read as text (Lit's defaults).
  static override properties: Record<string, PropertyOptions> = {
    backend: {},
    session: {},
    mode: {},
    challenge: {},
    locale: {},
    strings: { attribute: false },
    challengeWindowSize: { attribute: 'challenge-window-size' },
    env: { attribute: false },
    _status: { state: true },
    _info: { state: true },
    _result: { state: true },
    _notice: { state: true },
    _announce: { state: true },
  };

  /** Base URL of the companion backend, e.g. `https://shop.example/pay`. */
  backend = '';
  /** The checkout session token the merchant's server obtained. */
  session = '';
  /** `direct`: the card form; `hosted`: send the shopper to the gateway's payment page. */
  mode: PayMode = 'direct';
  /** Where the 3-D Secure challenge shows: `auto` (dialog, page redirect if framing fails), `iframe`, `redirect`. */
  challenge: ChallengeMode = 'auto';
  /**
   * BCP 47 locale of the strings and amount; defaults to the page's `lang`, then the browser's.
   * A region falls back to its language (`pt-BR`: Portuguese), an unknown language to English.
   */
  declare locale: string | undefined;
  /**
   * The merchant's own words: any string by its key (`en.ts` lists them), over the language
   * shown; with a `locale` the element does not speak, a whole language of the merchant's. An
   * entry that drops or invents a `{slot}` is refused (a console warning names it).
   */
  declare strings: Partial<Record<StringKey, string>> | undefined;
  /** EMV challenge window size `01`-`05`; chosen from the viewport when not set. */
  declare challengeWindowSize: ChallengeWindowSize | undefined;
  /** Replaces fetch, timers and navigation (tests, custom transports). */
  declare env: Partial<Env> | undefined;

  // What no one outside the element reads is `private` and starts with an underscore: the CDN
  // build shortens such names (vite.config.ts).
  private _status: Status = 'loading';
  declare private _info: SessionView | undefined;
  declare private _result:
    | { kind: ResultKind; title: string; detail: string; retry: boolean }
    | undefined;
  /** Why the form is back: the last attempt failed or was left (shown above the form). */
  private _notice = '';
  private _announce = '';

  private _abort = new AbortController();
  private _loadedFor = '';
  private _lastCard: { brand: BrandId | null; last4: string } | undefined;
  /** The token an extension answered, and the `session` it replaced (time-limits.ts). */
  private _token: [string, string] | undefined;

  /** The words and direction: the language, its strings and the merchant's (i18n/localize.ts). */
  private readonly _localize = new LocalizeController(this);

  /** The card form: its fields, their state, formatting and errors (card/card-form.ts). */
  private readonly _card = new CardForm(this, {
    t: (key, vars) => this._t(key, vars),
    now: () => this._env.now(),
    changed: (fields, brand) =>
      this._emit('pay-change', {
        complete: Object.values(fields).every(Boolean),
        brand: brand?.id ?? null,
        fields,
      }),
    announce: (text) => {
      this._announce = text;
    },
    saved: () => {
      const card = this._savedCards._card(this._info);
      return (
        card && { brand: brandOfSaved(card), optional: this._info?.savedCardCvc === 'optional' }
      );
    },
    asksToSave: () => this._info?.saveCard === 'ask',
  });

  /** A returning shopper's saved cards and the chosen one's code (card/saved-cards.ts). */
  private readonly _savedCards = new SavedCards(this);

  /** The shopper's contact and billing address, as the session asks (shopper/shopper-form.ts). */
  private readonly _shopper = new ShopperForm(this, {
    t: (key) => this._t(key),
    language: () => this._localize._language,
    // A saved card's first payment may have given some groups (never on the gateway's page).
    groups: () =>
      askedGroups(
        this._info?.collect,
        this.mode === 'direct' ? this._savedCards._card(this._info) : undefined,
      ),
    announce: (text) => {
      this._announce = text;
    },
  });

  /** The session's time limit: its warning, "I need more time", its end (time-limits.ts). */
  private readonly _time = new SessionTime(this, {
    _api: () => this._api(),
    _env: () => this._env,
    _t: (key, vars) => this._t(key, vars),
    _lang: () => this._localize._lang,
    _open: () => this._status === 'ready',
    // Read again: the backend says it expired (or another tab gave it more time).
    _expired: () => this.reset(),
    _token: (token) => {
      this._token = [this.session, token];
    },
  });

  /** The flow after Pay: NextActions, 3-D Secure and its dialog, to how it ended (three-ds/flow.ts). */
  private readonly _flow = new FlowController(this, {
    api: () => this._api(),
    env: () => this._env,
    emit: (...a) => this._emit(...a),
    step: (...a) => this._step(...a),
    t: (key, vars) => this._t(key, vars),
    time: (ms) => clockTime(this._localize._lang, ms),
    // The Pay button (aria-disabled while busy, so still focusable).
    restoreFocus: () =>
      this.renderRoot.querySelector<HTMLButtonElement>('button[type="submit"]')?.focus(),
    storage: () => {
      try {
        return window.sessionStorage;
      } catch {
        return undefined;
      }
    },
  });

  // ---- public API ------------------------------------------------------------------------------

  /** Validates and pays, as the Pay button does. Ignored while a payment is under way. */
  submit(): void {
    void this._pay();
  }

  /** Clears the form and errors and reads the session again (a retry after a network error). */
  reset(): void {
    if (this._status === 'paying') return;
    this._card._reset();
    this._result = undefined;
    this._announce = '';
    this._loadedFor = '';
    this.requestUpdate();
  }

  // ---- lifecycle ----------------------------------------------------------------------------------

  override connectedCallback(): void {
    super.connectedCallback();
    if (this._abort.signal.aborted) {
      this._abort = new AbortController();
      this._loadedFor = '';
    }
    window.addEventListener('pageshow', this._onPageShow);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // Aborting cancels the session fetches (they reject with an AbortError, which _fail ignores);
    // the FlowController stops its own flow.
    this._abort.abort();
    window.removeEventListener('pageshow', this._onPageShow);
    // A payment under way stops with the flow; any other state stays.
    if (this._status === 'paying') this._status = 'ready';
  }

  /**
   * Back to this page from the back/forward cache (e.g. Back from the bank's page): the flow that
   * ran when the page left is stale. Ask the backend where the order is, as a reload does.
   */
  private _onPageShow = (e: PageTransitionEvent): void => {
    if (!e.persisted) return;
    this._abort.abort();
    this._abort = new AbortController();
    this._flow.stop();
    if (this._status === 'paying') this._status = 'ready';
    this._loadedFor = '';
    this.requestUpdate();
  };

  protected override willUpdate(changed: PropertyValues): void {
    if (changed.has('mode') && this.mode !== 'hosted') this.mode = 'direct';
    if (changed.has('challenge') && !['auto', 'iframe', 'redirect'].includes(this.challenge))
      this.challenge = 'auto';
  }

  protected override updated(): void {
    const key = `${this.backend}\n${this.session}`;
    if (
      this.isConnected &&
      this.backend &&
      this.session &&
      key !== this._loadedFor &&
      this._status !== 'paying'
    ) {
      this._loadedFor = key;
      void this._load();
    }
  }

  // ---- helpers ------------------------------------------------------------------------------------

  private get _env(): Env {
    return { ...browserEnv(), ...this.env };
  }

  /** A string of the words shown, its slots filled (i18n/localize.ts). */
  private _t(key: StringKey, vars?: Record<string, string | number>): string {
    return this._localize._t(key, vars);
  }

  private _api(): Api {
    const env = this._env;
    return createApi({
      backend: new URL(this.backend, document.baseURI).href,
      session: this._token?.[0] === this.session ? this._token[1] : this.session,
      fetch: env.fetch,
      clock: env,
      signal: this._abort.signal,
    });
  }

  private _emit<K extends PayEventName>(name: K, detail: PayEventDetail<K>): void {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }

  private _step(
    step: PayStep,
    order?: OrderView,
    message?: PayEventDetail<'pay-status'>['message'],
  ): void {
    // The steps a shopper waits through have words (`step.<step>`), which are spoken; the others
    // (loading, ready, final) show for themselves.
    const words = `step.${step}`;
    if (words in en) this._announce = this._t(words as StringKey);
    this._emit('pay-status', {
      step,
      ...(order ? { orderId: order.orderId, status: order.status } : {}),
      ...(message ? { message } : {}),
    });
  }

  private _onFormSubmit(e: Event): void {
    e.preventDefault();
    void this._pay();
  }

  // ---- the payment ---------------------------------------------------------------------------------

  private async _load(): Promise<void> {
    this._status = 'loading';
    this._step('loading');
    // Nothing the shopper reads is written before their language is here.
    const words = this._localize._ready;
    try {
      const info = await this._api().session();
      await words;
      this._info = info;
      this._savedCards._offer(info);
      this._shopper._offer(info);
      this._time._watch(info);
      // The merchant may allow one mode only for this session: the backend refuses the other.
      if (!info.modes.includes(this.mode)) this.mode = info.modes[0] ?? this.mode;
      this._emit('pay-ready', {
        orderId: info.orderId,
        amount: info.amount,
        currency: info.currency,
        mode: this.mode,
      });
      const { state, order } = info;
      if (state === 'expired') throw new ApiError('session-expired', 'session expired', 401);
      if (state === 'cancelled') this._showResult('cancelled');
      // Back from a failed attempt (a hosted form, a redirect): the form, and why it is back.
      else if (state === 'open' && order)
        this._ended({ kind: order.abandoned ? 'abandoned' : 'final', order });
      else if (state === 'paying' || state === 'completed') {
        // Back from a top-level redirect (3DS or hosted form): pick the payment up where it is.
        this._status = 'paying';
        this._step('waiting', order);
        this._ended(await this._flow.follow(await this._api().next(), 'gateway', true));
      } else {
        this._status = 'ready';
        this._step('ready');
      }
    } catch (e) {
      await words;
      this._fail(e);
    }
  }

  private async _pay(): Promise<void> {
    if (this._status !== 'ready' || !this._info) return;
    this._notice = '';
    const request = await this._request(this._info);
    if (!request) return;
    if (this.mode === 'hosted') {
      this._status = 'paying';
      this._emit('pay-submit', { mode: 'hosted', brand: null });
      this._step('paying');
      try {
        // No body when the session asks the shopper nothing.
        const body = request.shopper ? request : undefined;
        this._ended(await this._flow.follow(await this._api().hosted(body), 'hosted'));
      } catch (e) {
        this._fail(e);
      }
      return;
    }
    this._status = 'paying';
    this._emit('pay-submit', { mode: 'direct', ...this._lastCard! });
    this._step('paying');
    try {
      const action = await this._api().pay(request as PayRequest);
      // The card is not needed again: it must not stay in the inputs while the page leaves for a
      // bank or comes back from the back/forward cache (another attempt types it again).
      this._card._clear();
      this._ended(await this._flow.follow(action));
    } catch (e) {
      this._fail(e);
    }
  }

  /**
   * What Pay sends: the saved card chosen and its security code, or the card typed (and whether
   * the shopper agreed to save it), and the shopper's details the session asks (all a hosted
   * payment sends); undefined, with the errors shown, when a field is not right.
   */
  private async _request(info: SessionView): Promise<PayRequest | HostedPayRequest | undefined> {
    const hosted = this.mode === 'hosted';
    const invalid = [...(hosted ? [] : this._card._check()), ...this._shopper._check()];
    if (invalid.length) {
      // Card and shopper inputs alike are named by their field.
      await focusAfterUpdate(this, `[name="${invalid[0]}"]`);
      // After the focus move, so the blur of the field left does not replace the summary.
      this._announce = this._t('fixErrors', {
        fields: this._localize._list(invalid.map((f) => this._t(f))),
      });
      this._emit('pay-error', {
        code: 'validation',
        message: { ...this._card._errors, ...this._shopper._errors }[invalid[0]!]!,
        field: invalid[0]!,
      });
      return undefined;
    }
    const shopper = this._shopper._details();
    const asked = Object.keys(shopper).length ? { shopper } : {};
    if (hosted) return asked;
    const v = this._card._values();
    const browser = this._flow.browserInfo();
    const saved = this._savedCards._card(info);
    if (saved) {
      this._lastCard = { brand: saved.brandId ?? null, last4: saved.last4 };
      return { savedCard: saved.handle, ...(v.cvc ? { cvc: v.cvc } : {}), browser, ...asked };
    }
    const number = digitsOnly(v.number);
    const exp = parseExpiry(v.expiry)!;
    this._lastCard = { brand: this._card._brand?.id ?? null, last4: number.slice(-4) };
    return {
      card: { number, expMonth: exp.month, expYear: exp.year, cvc: v.cvc, holder: v.name.trim() },
      browser,
      ...(this._card._keep() ? { saveCard: true } : {}),
      ...asked,
    };
  }

  /** Shows how the payment flow ended (outcome.ts); nothing when the page is leaving. */
  private _ended(end: FlowEnd): void {
    if (end.kind !== 'left') this._show(outcomeOf(end, (k) => this._t(k)));
  }

  private _fail(e: unknown): void {
    if (!this._abort.signal.aborted) this._show(failureOf(e));
  }

  /** Carries an outcome out: what shows, then the event that says so. */
  private _show({ shown, event, final }: Outcome): void {
    if (final) this._card._clear();
    if (shown.to === 'form') this._again(this._t(shown.why));
    else if (shown.to === 'field') {
      this._status = 'ready';
      const { field, message } = shown;
      // A shopper field gets our words for it (the backend's are English).
      if (this._shopper._owns(field)) this._announce = this._shopper._refuse(field);
      else {
        this._card._refuse(field, message);
        this._announce = message;
      }
    } else this._showResult(shown.kind, shown.detail, shown.card, shown.retry, shown.note);
    this._emit(event.name, event.detail);
    if (final) this._step('final', final);
  }

  /**
   * Back to the card form after a failed or left attempt: why, above the form and spoken once;
   * the card's number, expiry and code empty, the name kept; focus on the card number.
   */
  private _again(why: string): void {
    this._card._reset();
    this._notice = `${why} ${this._t('again')}`;
    this._announce = this._notice;
    this._status = 'ready';
    this._card._focus(this._card._saved() ? 'cvc' : 'number');
  }

  /**
   * The result panel: the `<kind>` string as title, `<kind>Detail` (or `detail`) below it, then
   * the `note`'s words.
   */
  private _showResult(
    kind: ResultKind,
    detail: StringKey = `${kind}Detail`,
    card = '',
    retry = false,
    note?: StringKey,
  ): void {
    const title = this._t(kind);
    const said = this._t(detail, { amount: this._amountText(), card });
    const text = note ? `${said} ${this._t(note)}` : said;
    this._result = { kind, title, detail: text, retry };
    this._status = 'ended';
    this._announce = `${title}. ${text}`;
    void focusAfterUpdate(this, '.result h2');
  }

  private _amountText(): string {
    const s = this._info;
    return s ? this._localize._amount(s.amount, s.currency) : '';
  }

  // ---- rendering ------------------------------------------------------------------------------------

  /**
   * The saved cards when the session offers any, then the card form: the chosen card's security
   * code, or the fields for another card (and the box to save it, when the session asks).
   */
  private _cardChoice(busy: boolean): TemplateResult {
    const info = this._info;
    const form = this._card._render(busy);
    return info?.savedCards?.length
      ? this._savedCards._render(info, busy, (k) => this._t(k), form, this._localize._comma)
      : form;
  }

  protected override render(): TemplateResult {
    // Before the language's file is here, an empty box: no English flashes before Arabic.
    const l = this._localize;
    if (!l._words) return html`<div class="root" aria-busy="true"></div>`;
    return html`<div class="root" dir=${l._dir ?? nothing} lang=${l._language}>${this._content()}</div>`;
  }

  /** (Lit writes a boolean bound to an attribute as "true" or "false", what `aria-*` wants.) */
  private _content(): TemplateResult {
    const paying = this._status === 'paying';
    const busy = paying || this._status === 'loading';
    const result = this._status === 'ended' && this._result;
    const amount = this._amountText();
    return html`${
      this._info?.testMode
        ? html`<p class="test" part="test-badge">${this._t('testMode')}</p>`
        : nothing
    }${
      result
        ? html`<div class="result" part="result" data-kind=${result.kind}>
            <h2 tabindex="-1">${result.title}</h2>
            <p>${result.detail}</p>
            ${result.retry ? html`<button type="button" part="button" @click=${() => this.reset()}>${this._t('tryAgain')}</button>` : nothing}
          </div>`
        : html`<form part="form" novalidate aria-busy=${busy} @submit=${this._onFormSubmit}>
            ${this._time.render()}
            ${this._notice ? html`<p class="notice" part="notice">${this._notice}</p>` : nothing}
            ${
              this.mode === 'hosted'
                ? html`<p class="hint">${this._t('hostedNote')}</p>`
                : this._cardChoice(busy)
            }${this._shopper._render(busy)}
            <button type="submit" part="button" aria-disabled=${busy}>
              ${paying ? html`<span class="spinner" aria-hidden="true"></span>` : nothing}<span>${
                paying
                  ? this._t('paying')
                  : amount
                    ? this._t('pay', { amount })
                    : this._t('payPlain')
              }</span>
            </button>
          </form>`
    }
      <div
        class=${paying ? 'status' : 'status sr-only'}
        part="status"
        role="status"
        aria-live="polite"
      >${this._announce}</div>
      ${this._flow.render()}`;
  }
}
