import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { type Api, ApiError, createApi } from './api.js';
import type { ChallengeWindowSize, NextAction, OrderView, SessionView } from './api-types.js';
import { BRANDS, type BrandId, cvcLength, detectBrand } from './card/brands.js';
import { parseExpiry } from './card/expiry.js';
import { caretAfterDigits, digitsOnly, formatCardNumber, formatExpiry } from './card/format.js';
import {
  CARD_FIELDS,
  type CardField,
  type CardValues,
  type FieldProblem,
  validateCard,
} from './card/validate.js';
import { browserEnv, type Env, sleep } from './env.js';
import type { PayErrorCode, PayEventDetail, PayEventName, PayStep } from './events.js';
import { formatAmount, type StringKey, stringsFor, t } from './i18n/index.js';
import { styles } from './pay-checkout.styles.js';
import { chooseWindowSize, collectBrowserInfo, fitWindowSize } from './three-ds/browser-info.js';
import {
  acsOrigin,
  actionWindowSize,
  type ChallengeAction,
  challengeForm,
  frameStyle,
} from './three-ds/challenge.js';
import { CHALLENGE_TIMEOUT_MS, METHOD_TIMEOUT_MS } from './three-ds/constants.js';
import { buildPostForm } from './three-ds/form-post.js';
import { ReturnInbox } from './three-ds/inbox.js';
import { runMethod } from './three-ds/method.js';

export type PayMode = 'direct' | 'hosted';
export type ChallengeMode = 'auto' | 'iframe' | 'redirect';

type View = 'loading' | 'form' | 'result';
type ResultKind = 'approved' | 'declined' | 'cancelled' | 'error';
type ChallengeOutcome = 'complete' | 'cancelled' | 'timeout' | 'redirect';

interface OpenChallenge {
  action: ChallengeAction;
  size: ChallengeWindowSize;
  frameName: string;
}

/** Backend field names (`error.field`) that point at one of our inputs. */
const SERVER_FIELDS: Record<string, CardField> = {
  number: 'number',
  expMonth: 'expiry',
  expYear: 'expiry',
  cvc: 'cvc',
  holder: 'name',
};

const AUTOCOMPLETE: Record<CardField, string> = {
  number: 'cc-number',
  expiry: 'cc-exp',
  cvc: 'cc-csc',
  name: 'cc-name',
};

let frameSeq = 0;

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
 * @fires pay-declined - The gateway declined (or filtered, or errored) the payment; detail `{ orderId, status, reason, errorCode }`.
 * @fires pay-error - The payment could not go on; detail `{ code, message, field? }`; codes: network, session-expired, validation, three-ds-timeout, challenge-cancelled, conflict, rate-limited, gateway, internal.
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
 * @csspart dialog - The 3-D Secure challenge dialog.
 * @csspart challenge-frame - The bank's challenge iframe.
 *
 * @cssprop [--pay-color-background=#ffffff] - Form background.
 * @cssprop [--pay-color-text=#1a1d24] - Text colour.
 * @cssprop [--pay-color-muted=#5b6270] - Hints and status text.
 * @cssprop [--pay-color-border=#c9ced8] - Field and card borders.
 * @cssprop [--pay-color-field=#ffffff] - Input background.
 * @cssprop [--pay-color-primary=#3056d3] - Pay button background.
 * @cssprop [--pay-color-on-primary=#ffffff] - Pay button text.
 * @cssprop [--pay-color-error=#b42318] - Errors.
 * @cssprop [--pay-color-success=#067647] - Approved result.
 * @cssprop [--pay-color-focus=#3056d3] - Focus ring.
 * @cssprop [--pay-radius=8px] - Corner radius.
 * @cssprop [--pay-spacing=12px] - Base spacing.
 * @cssprop [--pay-font-family=system-ui] - Font.
 * @cssprop [--pay-font-size=16px] - Base font size (16 px keeps iOS from zooming into inputs).
 * @cssprop [--pay-input-height=44px] - Input height.
 * @cssprop [--pay-max-width=440px] - Maximum width of the element.
 */
export class PayCheckoutElement extends LitElement {
  static override styles = styles;

  static override properties = {
    backend: { type: String },
    session: { type: String },
    mode: { type: String },
    challenge: { type: String },
    locale: { type: String },
    challengeWindowSize: { type: String, attribute: 'challenge-window-size' },
    env: { attribute: false },
    _view: { state: true },
    _busy: { state: true },
    _info: { state: true },
    _brand: { state: true },
    _errors: { state: true },
    _result: { state: true },
    _announce: { state: true },
    _challenge: { state: true },
  };

  /** Base URL of the companion backend, e.g. `https://shop.example/pay`. */
  declare backend: string;
  /** The checkout session token the merchant's server obtained. */
  declare session: string;
  /** `direct`: the card form; `hosted`: send the shopper to the gateway's payment page. */
  declare mode: PayMode;
  /** Where the 3-D Secure challenge shows: `auto` (dialog, page redirect if framing fails), `iframe`, `redirect`. */
  declare challenge: ChallengeMode;
  /** BCP 47 locale of the strings and amount; defaults to the page's `lang`, then the browser's. */
  declare locale: string | undefined;
  /** EMV challenge window size `01`-`05`; chosen from the viewport when not set. */
  declare challengeWindowSize: ChallengeWindowSize | undefined;
  /** Replaces fetch, timers and navigation (tests, custom transports). */
  declare env: Partial<Env> | undefined;

  declare private _view: View;
  declare private _busy: boolean;
  declare private _info: SessionView | undefined;
  declare private _brand: BrandId | null;
  declare private _errors: Partial<Record<CardField, string>>;
  declare private _result:
    | { kind: ResultKind; title: string; detail: string; retry: boolean }
    | undefined;
  declare private _announce: string;
  declare private _challenge: OpenChallenge | undefined;

  private _abort = new AbortController();
  private _inbox = new ReturnInbox(() => this._backendOrigin());
  private _loadedFor = '';
  private _touched = new Set<CardField>();
  private _endChallenge: ((o: ChallengeOutcome) => void) | undefined;
  private _lastCard: { brand: BrandId | null; last4: string } | undefined;

  constructor() {
    super();
    this.backend = '';
    this.session = '';
    this.mode = 'direct';
    this.challenge = 'auto';
    this._view = 'loading';
    this._busy = false;
    this._brand = null;
    this._errors = {};
    this._announce = '';
  }

  // ---- public API ------------------------------------------------------------------------------

  /** Validates and pays, as the Pay button does. Ignored while a payment is under way. */
  submit(): void {
    void this._pay();
  }

  /** Clears the form and errors and reads the session again (a retry after a network error). */
  reset(): void {
    if (this._busy) return;
    this._clearCard();
    this._touched.clear();
    this._errors = {};
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
    window.addEventListener('message', this._inbox.handleEvent);
    document.addEventListener('securitypolicyviolation', this._onCspViolation, true);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // Aborting cancels fetches, sleeps and the Method/challenge waits; their `finally` blocks
    // remove the frames and clear the timers.
    this._abort.abort(new DOMException('pay-checkout removed', 'AbortError'));
    window.removeEventListener('message', this._inbox.handleEvent);
    document.removeEventListener('securitypolicyviolation', this._onCspViolation, true);
    this._inbox.clear();
    this._endChallenge?.('cancelled');
    this._busy = false;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
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
      !this._busy
    ) {
      this._loadedFor = key;
      void this._load();
    }
  }

  // ---- helpers ------------------------------------------------------------------------------------

  private get _env(): Env {
    return { ...browserEnv(), ...this.env };
  }

  private get _lang(): string {
    return this.locale || document.documentElement.lang || navigator.language || 'en';
  }

  private _t(key: StringKey, vars?: Record<string, string | number>): string {
    return t(stringsFor(this._lang), key, vars);
  }

  private _backendOrigin(): string {
    try {
      return new URL(this.backend, document.baseURI).origin;
    } catch {
      return '';
    }
  }

  private _api(): Api {
    const env = this._env;
    return createApi({
      backend: new URL(this.backend, document.baseURI).href,
      session: this.session,
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
    const text: Partial<Record<PayStep, StringKey>> = {
      paying: 'step.paying',
      method: 'step.method',
      challenge: 'step.challenge',
      waiting: 'step.waiting',
      redirect: 'step.redirect',
    };
    const key = text[step];
    if (key) this._announce = this._t(key);
    this._emit('pay-status', {
      step,
      ...(order ? { orderId: order.orderId, status: order.status } : {}),
      ...(message ? { message } : {}),
    });
  }

  private _input(field: CardField): HTMLInputElement | null {
    return this.renderRoot.querySelector<HTMLInputElement>(`input[name="${field}"]`);
  }

  private _values(): CardValues {
    const v = (f: CardField) => this._input(f)?.value ?? '';
    return { number: v('number'), expiry: v('expiry'), cvc: v('cvc'), name: v('name') };
  }

  /** Card data lives in the inputs only; this wipes it once it is no longer needed. */
  private _clearCard(): void {
    for (const f of CARD_FIELDS) {
      const el = this._input(f);
      if (el) el.value = '';
    }
    this._brand = null;
  }

  private _message(field: CardField, problem: FieldProblem): string {
    if (field === 'cvc' && problem === 'invalid')
      return this._t('cvc.invalid', {
        n: cvcLength(detectBrand(digitsOnly(this._values().number))),
      });
    return this._t(`${field}.${problem}` as StringKey);
  }

  private _problems() {
    return validateCard(this._values(), new Date(this._env.now()));
  }

  private _validate(
    fields: readonly CardField[],
    problems = this._problems(),
  ): Partial<Record<CardField, string>> {
    const errors = { ...this._errors };
    for (const f of fields) {
      const p = problems[f];
      if (p) errors[f] = this._message(f, p);
      else delete errors[f];
    }
    return errors;
  }

  // ---- input handling -----------------------------------------------------------------------------

  private _onInput(e: InputEvent): void {
    const el = e.target as HTMLInputElement;
    const field = el.name as CardField;
    const deleting = (e.inputType ?? '').startsWith('delete');
    if (field === 'number') {
      const caret = el.selectionStart ?? el.value.length;
      const before = digitsOnly(el.value.slice(0, caret)).length;
      const brand = detectBrand(digitsOnly(el.value));
      el.value = formatCardNumber(el.value, brand);
      if (this.shadowRoot?.activeElement === el) {
        const pos = caretAfterDigits(el.value, before);
        el.setSelectionRange(pos, pos);
      }
      this._brand = brand?.id ?? null;
    } else if (field === 'expiry') {
      el.value = formatExpiry(el.value, deleting);
    } else if (field === 'cvc') {
      const max = cvcLength(detectBrand(digitsOnly(this._values().number)));
      el.value = digitsOnly(el.value).slice(0, max);
    }
    // Errors update live once a field has been left once; before that we do not nag mid-typing.
    const problems = this._problems();
    if (this._touched.has(field) || this._errors[field]) {
      this._errors = this._validate([field], problems);
    }
    this._emitChange(problems);
  }

  private _onBlur(e: FocusEvent): void {
    const el = e.target as HTMLInputElement;
    const field = el.name as CardField;
    if (!el.value && !this._touched.has(field)) return;
    this._touched.add(field);
    this._errors = this._validate([field]);
    const msg = this._errors[field];
    if (msg) this._announce = msg;
  }

  private _emitChange(problems: ReturnType<typeof validateCard>): void {
    const fields = {
      number: !problems.number,
      expiry: !problems.expiry,
      cvc: !problems.cvc,
      name: !problems.name,
    };
    this._emit('pay-change', {
      complete: Object.values(fields).every(Boolean),
      brand: this._brand,
      fields,
    });
  }

  private _onFormSubmit(e: Event): void {
    e.preventDefault();
    void this._pay();
  }

  // ---- the payment ---------------------------------------------------------------------------------

  private async _load(): Promise<void> {
    this._view = 'loading';
    this._emit('pay-status', { step: 'loading' });
    try {
      const info = await this._api().session();
      this._info = info;
      this._emit('pay-ready', {
        orderId: info.orderId,
        amount: info.amount,
        currency: info.currency,
        mode: this.mode,
      });
      if (info.state === 'expired') throw new ApiError('session-expired', 'session expired', 401);
      if (info.state === 'cancelled') {
        this._showResult('cancelled', false);
        return;
      }
      if (info.state === 'paying' || info.state === 'completed') {
        // Back from a top-level redirect (3DS or hosted form): pick the payment up where it is.
        this._view = 'form';
        this._busy = true;
        this._step('waiting', info.order);
        await this._follow(await this._api().next(), 'gateway', true);
        return;
      }
      this._view = 'form';
      this._emit('pay-status', { step: 'ready' });
    } catch (e) {
      this._fail(e);
    }
  }

  private async _pay(): Promise<void> {
    if (this._busy || this._view !== 'form' || !this._info) return;
    if (this.mode === 'hosted') {
      this._busy = true;
      this._emit('pay-submit', { mode: 'hosted', brand: null });
      this._step('paying');
      try {
        await this._follow(await this._api().hosted(), 'hosted');
      } catch (e) {
        this._fail(e);
      }
      return;
    }
    for (const f of CARD_FIELDS) this._touched.add(f);
    this._errors = this._validate(CARD_FIELDS);
    const invalid = CARD_FIELDS.filter((f) => this._errors[f]);
    if (invalid.length) {
      await this.updateComplete;
      this._input(invalid[0]!)?.focus();
      // After the focus move, so the blur of the field left does not replace the summary.
      this._announce = this._t('fixErrors', {
        count: invalid.length,
        fields: invalid.map((f) => this._t(f)).join(', '),
      });
      this._emit('pay-error', {
        code: 'validation',
        message: this._errors[invalid[0]!]!,
        field: invalid[0]!,
      });
      return;
    }
    const v = this._values();
    const number = digitsOnly(v.number);
    const exp = parseExpiry(v.expiry)!;
    this._lastCard = { brand: this._brand, last4: number.slice(-4) };
    this._busy = true;
    this._emit('pay-submit', { mode: 'direct', brand: this._brand, last4: this._lastCard.last4 });
    this._step('paying');
    try {
      const action = await this._api().pay({
        card: { number, expMonth: exp.month, expYear: exp.year, cvc: v.cvc, holder: v.name.trim() },
        browser: this._browserInfo(),
      });
      // A session takes one payment: the card is not needed again, so it must not stay in the
      // inputs while the page leaves for a bank or comes back from the back/forward cache.
      this._clearCard();
      await this._follow(action);
    } catch (e) {
      this._fail(e);
    }
  }

  private _browserInfo() {
    const size = chooseWindowSize(window.innerWidth, window.innerHeight, this.challengeWindowSize);
    return collectBrowserInfo(window, size);
  }

  /** Follows NextActions until a final one, or until the page leaves for a redirect. */
  private async _follow(
    first: NextAction,
    redirectReason: 'hosted' | 'gateway' = 'gateway',
    firstFromLongPoll = false,
  ): Promise<void> {
    const api = this._api();
    const signal = this._abort.signal;
    let a = first;
    // `/widget/next` waits on the server until something changes, so the first `wait` goes
    // straight to it; `retryAfterMs` paces only the polls that follow an empty long poll.
    let longPolled = firstFromLongPoll;
    for (;;) {
      switch (a.action) {
        case 'final':
          this._finish(a.order);
          return;
        case 'wait':
          this._step('waiting', a.order);
          if (longPolled) {
            await sleep(this._env, Math.min(Math.max(a.retryAfterMs, 0), 10_000), signal);
          }
          a = await api.next();
          longPolled = true;
          break;
        case 'method': {
          this._step('method', a.order);
          this._emit('pay-3ds-method', { phase: 'start' });
          const compInd = await runMethod({
            container: this.renderRoot.querySelector('.method-host') ?? this.renderRoot,
            url: a.methodUrl,
            data: a.methodData,
            timeoutMs:
              a.timeoutMs > 0 ? Math.min(a.timeoutMs, METHOD_TIMEOUT_MS) : METHOD_TIMEOUT_MS,
            clock: this._env,
            completed: this._inbox.wait(['method-complete'], a.order.orderId, signal),
            signal,
          });
          this._emit('pay-3ds-method', { phase: 'complete', compInd });
          a = await api.methodResult({ threeDSCompInd: compInd, browser: this._browserInfo() });
          break;
        }
        case 'challenge':
        case '3ds1':
        case 'html': {
          const outcome = await this._runChallenge(a);
          if (outcome === 'redirect') return;
          if (outcome === 'complete') {
            this._step('waiting', a.order, 'challenge-complete');
            a = await api.next();
            break;
          }
          const after = await api.cancel({
            reason: outcome === 'cancelled' ? 'challenge-cancelled' : 'shopper-left',
          });
          // The bank may have answered just before the shopper cancelled: a final approval wins.
          if (after.action === 'final' && after.order.status === 'approved') {
            this._finish(after.order);
          } else if (outcome === 'cancelled') {
            this._showResult('cancelled', false);
            this._emit('pay-error', {
              code: 'challenge-cancelled',
              message: this._t('cancelledDetail'),
            });
          } else {
            this._showResult('error', false, 'error.three-ds-timeout');
            this._emit('pay-error', {
              code: 'three-ds-timeout',
              message: this._t('error.three-ds-timeout'),
            });
          }
          return;
        }
        case 'redirect':
          this._emit('pay-redirect', { url: a.url, reason: redirectReason });
          this._step('redirect', a.order);
          this._env.navigate(a.url);
          return;
        default:
          throw new ApiError('internal', 'unknown action');
      }
    }
  }

  private async _runChallenge(a: ChallengeAction): Promise<ChallengeOutcome> {
    const chosen = chooseWindowSize(
      window.innerWidth,
      window.innerHeight,
      this.challengeWindowSize,
    );
    const size = fitWindowSize(actionWindowSize(a, chosen), window.innerWidth, window.innerHeight);
    const form = challengeForm(a);
    if (form && this.challenge === 'redirect') {
      this._redirectChallenge(a);
      return 'redirect';
    }
    const signal = this._abort.signal;
    const frameName = `pay-3ds-challenge-${++frameSeq}`;
    this._challenge = { action: a, size, frameName };
    await this.updateComplete;
    const dialog = this.renderRoot.querySelector('dialog')!;
    const frame = dialog.querySelector('iframe')!;
    dialog.showModal();
    // Focus the close button, so keyboard users land in the dialog and can leave it.
    dialog.querySelector<HTMLButtonElement>('.close')?.focus();
    const version = a.action === 'challenge' ? '2' : a.action === '3ds1' ? '1.0.2' : 'html';
    this._emit('pay-challenge', { phase: 'open', version, windowSize: size });
    this._step('challenge', a.order);
    if (form) {
      const post = buildPostForm(document, form.url, frameName, form.fields);
      dialog.append(post);
      post.submit();
      post.remove();
    } else if (a.action === 'html') {
      // Not sandboxed on purpose: the pages this leads to (ACS, then our return page) must keep
      // their real origins, or the return page's postMessage would arrive from "null".
      frame.srcdoc = a.html;
    }
    let timer: number | undefined;
    const outcome = await new Promise<ChallengeOutcome>((resolve) => {
      this._endChallenge = resolve;
      this._inbox
        .wait(['challenge-complete', 'final'], a.order.orderId, signal)
        .then(() => resolve('complete'));
      timer = this._env.setTimeout(() => resolve('timeout'), CHALLENGE_TIMEOUT_MS);
    });
    this._endChallenge = undefined;
    this._env.clearTimeout(timer!);
    if (dialog.open) dialog.close();
    this._challenge = undefined;
    if (signal.aborted) return 'redirect';
    this._emit('pay-challenge', { phase: 'close', reason: outcome });
    await this.updateComplete;
    // Focus back where it came from: the Pay button (aria-disabled, so still focusable).
    this.renderRoot.querySelector<HTMLButtonElement>('button[type="submit"]')?.focus();
    if (outcome === 'redirect') this._redirectChallenge(a);
    return outcome;
  }

  /** Posts the challenge form at the top level; the backend brings the shopper back to the shop. */
  private _redirectChallenge(a: ChallengeAction): void {
    const form = challengeForm(a)!;
    this._emit('pay-redirect', { url: form.url, reason: 'challenge' });
    this._step('redirect', a.order);
    this._env.submitTop(buildPostForm(document, form.url, '_top', form.fields));
  }

  /** Framing was blocked by the merchant page's CSP (`frame-src`): continue at the top level. */
  private _onCspViolation = (e: SecurityPolicyViolationEvent): void => {
    const open = this._challenge;
    if (
      !open ||
      this.challenge !== 'auto' ||
      !/^(frame|child|default)-src/.test(e.effectiveDirective || e.violatedDirective)
    )
      return;
    let blocked = '';
    try {
      blocked = new URL(e.blockedURI).origin;
    } catch {
      return;
    }
    if (blocked === acsOrigin(open.action)) this._endChallenge?.('redirect');
  };

  private _onDialogCancel(e: Event): void {
    // Escape: we close the dialog ourselves once the cancel is decided, so the flow stays in charge.
    e.preventDefault();
    this._endChallenge?.('cancelled');
  }

  private _finish(order: OrderView): void {
    this._clearCard();
    const card = order.card ?? this._maskedFromLast();
    if (order.status === 'approved') {
      this._showResult('approved', false, undefined, card?.masked);
      this._emit('pay-success', {
        orderId: order.orderId,
        ...(order.gatewayOrderId ? { gatewayOrderId: order.gatewayOrderId } : {}),
        amount: order.amount,
        amountMinor: order.amountMinor,
        currency: order.currency,
        ...(card ? { card } : {}),
      });
    } else if (
      order.status === 'declined' ||
      order.status === 'error' ||
      order.status === 'filtered'
    ) {
      this._showResult('declined', false);
      this._emit('pay-declined', {
        orderId: order.orderId,
        status: order.status,
        ...(order.reason ? { reason: order.reason } : {}),
        ...(order.errorCode ? { errorCode: order.errorCode } : {}),
      });
    } else {
      // A `final` for a non-final status only happens when the session was cancelled.
      this._showResult('cancelled', false);
      this._emit('pay-error', { code: 'challenge-cancelled', message: this._t('cancelledDetail') });
    }
    this._emit('pay-status', { step: 'final', orderId: order.orderId, status: order.status });
  }

  private _maskedFromLast(): { brand: string; last4: string; masked: string } | undefined {
    const c = this._lastCard;
    return c ? { brand: c.brand ?? 'card', last4: c.last4, masked: `**** ${c.last4}` } : undefined;
  }

  private _showResult(
    kind: ResultKind,
    retry: boolean,
    detailKey?: StringKey,
    card?: string,
  ): void {
    const titles: Record<ResultKind, StringKey> = {
      approved: 'approved',
      declined: 'declined',
      cancelled: 'cancelled',
      error: 'failed',
    };
    const details: Record<ResultKind, StringKey> = {
      approved: 'approvedDetail',
      declined: 'declinedDetail',
      cancelled: 'cancelledDetail',
      error: 'error.generic',
    };
    const detail = this._t(detailKey ?? details[kind], {
      amount: this._amountText(),
      card: card ?? '',
    });
    this._result = { kind, title: this._t(titles[kind]), detail, retry };
    this._busy = false;
    this._view = 'result';
    this._announce = `${this._result.title}. ${detail}`;
    void this.updateComplete.then(() =>
      this.renderRoot.querySelector<HTMLElement>('.result h2')?.focus(),
    );
  }

  private _fail(e: unknown): void {
    if (this._abort.signal.aborted) return;
    const err =
      e instanceof ApiError
        ? e
        : new ApiError('internal', e instanceof Error ? e.message : String(e));
    if (err.code === 'validation' && err.field) {
      const field = SERVER_FIELDS[err.field.replace(/^card\./, '')];
      if (field) {
        // The backend refused one of our fields: back to the form, the error on that field.
        this._busy = false;
        this._view = 'form';
        this._errors = { ...this._errors, [field]: err.message };
        this._announce = err.message;
        void this.updateComplete.then(() => this._input(field)?.focus());
        this._emit('pay-error', { code: 'validation', message: err.message, field });
        return;
      }
    }
    const code: PayErrorCode = err.code === 'unauthorized' ? 'session-expired' : err.code;
    const known: Partial<Record<PayErrorCode, StringKey>> = {
      network: 'error.network',
      'session-expired': 'error.session-expired',
      conflict: 'error.conflict',
    };
    this._showResult('error', code === 'network', known[code] ?? 'error.generic');
    this._emit('pay-error', { code, message: err.message });
  }

  private _amountText(): string {
    const s = this._info;
    return s ? formatAmount(s.amount, s.currency, this._lang) : '';
  }

  // ---- rendering ------------------------------------------------------------------------------------

  private _field(
    field: CardField,
    opts: { half?: boolean; hint?: string; placeholder?: string; maxlength?: number },
  ): TemplateResult {
    const error = this._errors[field];
    const describedBy = [
      opts.hint ? `hint-${field}` : '',
      field === 'number' && this._brand ? 'brand' : '',
      `err-${field}`,
    ]
      .filter(Boolean)
      .join(' ');
    const numeric = field !== 'name';
    return html`<div class="field ${opts.half ? 'half' : ''}" part="field field-${field}">
      <label for="in-${field}" part="label label-${field}">${this._t(field)}</label>
      ${opts.hint ? html`<span id="hint-${field}" class="hint" part="hint">${opts.hint}</span>` : nothing}
      <div class="wrap">
        <input
          id="in-${field}"
          name=${field}
          part="input input-${field}"
          type="text"
          autocomplete=${AUTOCOMPLETE[field]}
          inputmode=${numeric ? 'numeric' : 'text'}
          spellcheck="false"
          autocapitalize=${field === 'name' ? 'words' : 'off'}
          placeholder=${opts.placeholder ?? nothing}
          maxlength=${opts.maxlength ?? nothing}
          aria-invalid=${error ? 'true' : 'false'}
          aria-describedby=${describedBy}
          @input=${this._onInput}
          @blur=${this._onBlur}
        />
        ${
          field === 'number' && this._brand
            ? html`<span id="brand" class="brand" part="brand">${BRANDS.find((b) => b.id === this._brand)?.name}</span>`
            : nothing
        }
      </div>
      <div id="err-${field}" class="error" part="error error-${field}">${error ?? ''}</div>
    </div>`;
  }

  private _button(): TemplateResult {
    const amount = this._amountText();
    const label = this._busy
      ? this._t('paying')
      : amount
        ? this._t('pay', { amount })
        : this._t('payPlain');
    const disabled = this._busy || this._view === 'loading';
    return html`<button type="submit" part="button" aria-disabled=${disabled ? 'true' : 'false'}>
      ${this._busy ? html`<span class="spinner" aria-hidden="true"></span>` : nothing}<span>${label}</span>
    </button>`;
  }

  protected override render(): TemplateResult {
    const cvcLen = cvcLength(BRANDS.find((b) => b.id === this._brand));
    const main =
      this._view === 'result' && this._result
        ? html`<div class="result" part="result" data-kind=${this._result.kind}>
            <h2 tabindex="-1">${this._result.title}</h2>
            <p>${this._result.detail}</p>
            ${this._result.retry ? html`<button type="button" part="button" @click=${() => this.reset()}>${this._t('tryAgain')}</button>` : nothing}
          </div>`
        : html`<form part="form" novalidate aria-busy=${this._busy || this._view === 'loading' ? 'true' : 'false'} @submit=${this._onFormSubmit}>
            ${
              this.mode === 'hosted'
                ? html`<p class="hint">${this._t('hostedNote')}</p>`
                : html`<fieldset ?disabled=${this._busy || this._view === 'loading'}>
                    ${this._field('number', { placeholder: '1234 1234 1234 1234' })}
                    ${this._field('expiry', { half: true, hint: this._t('expiryHint'), maxlength: 5 })}
                    ${this._field('cvc', { half: true, hint: this._t(cvcLen === 4 ? 'cvcHint4' : 'cvcHint3'), maxlength: cvcLen })}
                    ${this._field('name', {})}
                  </fieldset>`
            }
            ${this._button()}
          </form>`;
    const ch = this._challenge;
    return html`${main}
      <div
        class=${this._busy ? 'status' : 'status sr-only'}
        part="status"
        role="status"
        aria-live="polite"
      >${this._announce}</div>
      <div class="method-host"></div>
      <dialog
        part="dialog"
        class=${ch?.size === '05' ? 'full' : ''}
        aria-labelledby="dlg-title"
        @cancel=${this._onDialogCancel}
        @close=${() => this._endChallenge?.('cancelled')}
      >
        ${
          ch
            ? html`<div class="dialog-head">
                  <h2 id="dlg-title">${this._t('dialogTitle')}</h2>
                  <button type="button" class="close" @click=${() => this._endChallenge?.('cancelled')}>
                    <span aria-hidden="true">✕</span><span class="sr-only">${this._t('dialogClose')}</span>
                  </button>
                </div>
                <iframe
                  class="challenge-frame"
                  part="challenge-frame"
                  name=${ch.frameName}
                  title=${this._t('dialogTitle')}
                  style=${frameStyle(ch.size)}
                  allow="payment *; publickey-credentials-get *"
                ></iframe>
                ${
                  ch.action.action !== 'html' && this.challenge !== 'iframe'
                    ? html`<a class="fallback" href="#" @click=${(e: Event) => {
                        e.preventDefault();
                        this._endChallenge?.('redirect');
                      }}>${this._t('dialogFallback')}</a>`
                    : nothing
                }`
            : nothing
        }
      </dialog>`;
  }
}
