/**
 * The payment flow of `<pay-checkout>` after Pay, as a Lit reactive controller: it follows the
 * backend's NextActions (Method, challenge, 1.0.2, gateway page, redirects, waits) to a final
 * order, for every payment, the hosted form's included. The element hands it the first action and
 * gets back how the flow ended; the card form (card/card-form.ts) and the events stay with the
 * element, the challenge dialog's state and markup are challenge-dialog.ts.
 *
 * Every bank step goes through the backend's launcher page (`launchUrl`): in a frame of ours, or
 * at the top level in redirect mode. The merchant page never posts a form to a bank nor frames one.
 *
 * While a challenge is open the flow ends on the first of: the return page's message, the
 * backend's long poll answering something else (a lost message: PUBLIC_URL on another origin, an
 * ACS posting from a nested frame, an ACS timeout), the shopper confirming Cancel, or 10 minutes.
 * The bank's 10 minutes cannot be extended from here: WARN_BEFORE_MS before they end the dialog
 * says when, and what then happens (WCAG 2.2.1; time-limits.ts has the session's limit).
 */
import { html } from 'lit-html';
import type {
  BrowserInfo,
  ChallengeWindowSize,
  NextAction,
  OrderView,
} from '../../../contract/api-types.js';
import { unsafeUrlOf } from '../../../contract/safe-url.js';
import { CHALLENGE_TIMEOUT_MS, METHOD_TIMEOUT_MS } from '../../../contract/three-ds.js';
import type { Api } from '../api.js';
import type { ReactiveController } from '../element-base.js';
import { type Env, sleep } from '../env.js';
import type { PayEventDetail, PayEventName, PayStep } from '../events.js';
import type { StringKey } from '../i18n/index.js';
import { WARN_BEFORE_MS } from '../time-limits.js';
import { chooseWindowSize, collectBrowserInfo, fitWindowSize } from './browser-info.js';
import {
  actionWindowSize,
  bankStepOf,
  type ChallengeAction,
  challengeVersion,
  framingRefused,
} from './challenge.js';
import {
  ChallengeDialog,
  type ChallengeDialogHost,
  type ChallengeEnd,
} from './challenge-dialog.js';
import { markLaunched, wasLaunched } from './launched.js';
import { returnMessage } from './messages.js';
import { runMethod } from './method.js';

export type ChallengeMode = 'auto' | 'iframe' | 'redirect';

/**
 * The host element as the flow reads it: its public `challenge` mode and window size, and its
 * shadow root, where render()'s markup (the dialog, the Method frame's place) is.
 */
export interface FlowHost extends ChallengeDialogHost {
  readonly challenge: ChallengeMode;
  readonly challengeWindowSize?: ChallengeWindowSize | undefined;
  readonly renderRoot: ParentNode;
}

/** What else the flow needs from its host element. */
export interface FlowPorts {
  /** A backend client bound to the element's lifetime. */
  api(): Api;
  env(): Env;
  emit<K extends PayEventName>(name: K, detail: PayEventDetail<K>): void;
  step(step: PayStep, order?: OrderView, message?: PayEventDetail<'pay-status'>['message']): void;
  t(key: StringKey, vars?: Record<string, string | number>): string;
  /** A time on the env clock as the shopper's language writes the hour. */
  time(ms: number): string;
  /** Where launched steps are remembered (sessionStorage); undefined when unavailable. */
  storage(): Storage | undefined;
  /** Puts focus back where it came from once the dialog closes (the Pay button). */
  restoreFocus(): void;
}

/**
 * How a flow ended, for the host to show. `left`: the page is going to another site.
 * `abandoned`: the shopper came back from a bank page they had not finished (Back, a reload).
 */
export type FlowEnd =
  | { kind: 'final'; order: OrderView }
  | { kind: 'cancelled' | 'timeout' | 'abandoned'; order: OrderView }
  | { kind: 'left' };

/** How soon to ask again after refusing a URL (the backend may answer the same action at once). */
const UNSAFE_URL_RETRY_MS = 1_000;
/** The least time between two polls while a challenge is open (the backend may answer at once). */
export const CHALLENGE_POLL_MIN_MS = 2_000;
/** When the "continue in this window" link shows: a slow bank page gets time to load first. */
export const FALLBACK_AFTER_MS = 10_000;

/** Its `private` members start with an underscore: the CDN build shortens such names (vite.config.ts). */
export class FlowController implements ReactiveController {
  /** The challenge dialog a bank step opens; render() puts it in the host's template. */
  readonly dialog: ChallengeDialog;

  private readonly _host: FlowHost;
  private readonly _ports: FlowPorts;
  /** Aborted by stop(): every fetch, wait and listener of the flow that runs. */
  private _abort = new AbortController();

  constructor(host: FlowHost, ports: FlowPorts) {
    this._host = host;
    this._ports = ports;
    this.dialog = new ChallengeDialog(host, (key) => ports.t(key));
    host.addController(this);
  }

  hostDisconnected(): void {
    this.stop();
  }

  /** Ends whatever flow runs (its frames go, its timers stop); the next follow() starts afresh. */
  stop(): void {
    // Aborting cancels fetches, sleeps and the Method/challenge waits (they reject with an
    // AbortError); their `finally` blocks remove the frames and clear the timers.
    this._abort.abort();
    this._abort = new AbortController();
    this.dialog._close();
  }

  /** The EMV browser fields; redirect mode asks for a full window (`05`), as EMV wants. */
  browserInfo(): BrowserInfo {
    return collectBrowserInfo(
      window,
      this._host.challenge === 'redirect' ? '05' : this._chosenSize(),
    );
  }

  /** The merchant's window size, else the viewport's. */
  private _chosenSize(): ChallengeWindowSize {
    return chooseWindowSize(innerWidth, innerHeight, this._host.challengeWindowSize);
  }

  /**
   * Follows NextActions until a final one, a cancel, or the page leaving.
   * `resumed`: the first action came from a long poll after a reload or Back, not from a click.
   */
  async follow(
    first: NextAction,
    redirectReason: 'hosted' | 'gateway' = 'gateway',
    resumed = false,
  ): Promise<FlowEnd> {
    const api = this._ports.api();
    const signal = this._abort.signal;
    const env = this._ports.env();
    let a = first;
    // `/widget/next` waits on the server until something changes, so the first `wait` goes
    // straight to it; `retryAfterMs` paces only the polls that follow an empty long poll.
    let longPolled = resumed;
    const refused = new Set<string>();
    for (;;) {
      const unsafe = unsafeUrlOf(a);
      if (unsafe !== undefined) {
        // Never navigate to it nor frame it (a `javascript:` URL would run as the merchant page).
        // The order goes on at the gateway: keep asking the backend where it stands.
        if (!refused.has(unsafe)) {
          refused.add(unsafe);
          this._ports.emit('pay-error', {
            code: 'unsafe-url',
            message: `Refused to follow a ${a.action} URL that is not https`,
          });
        }
        a = { action: 'wait', order: a.order, retryAfterMs: UNSAFE_URL_RETRY_MS };
        longPolled = true;
      }
      const bank = bankStepOf(a, redirectReason, this._host.challenge);
      if (bank) {
        const after = await this._bankStep(bank, api);
        // A FlowEnd has a `kind`, a NextAction an `action`.
        if ('kind' in after) return after;
        a = after;
        longPolled = true;
        continue;
      }
      switch (a.action) {
        case 'final':
          return { kind: 'final', order: a.order };
        case 'wait':
          this._ports.step('waiting', a.order);
          if (longPolled) {
            await sleep(env, Math.min(Math.max(a.retryAfterMs, 0), 10_000), signal);
          }
          a = await api.next();
          longPolled = true;
          break;
        case 'method': {
          this._ports.step('method', a.order);
          this._ports.emit('pay-3ds-method', { phase: 'start' });
          const compInd = await runMethod({
            container: this._host.renderRoot.querySelector('.method-host') ?? this._host.renderRoot,
            launchUrl: a.methodUrl ? a.launchUrl : undefined,
            timeoutMs:
              a.timeoutMs > 0 ? Math.min(a.timeoutMs, METHOD_TIMEOUT_MS) : METHOD_TIMEOUT_MS,
            clock: env,
            completed: returnMessage(api.origin, a.order.attemptId, ['method-complete'], signal),
            signal,
          });
          this._ports.emit('pay-3ds-method', { phase: 'complete', compInd });
          a = await api.methodResult({ threeDSCompInd: compInd, browser: this.browserInfo() });
          break;
        }
        case 'redirect':
          // The hosted form, or a gateway page the merchant wants at the top level.
          this._ports.emit('pay-redirect', { url: a.url, reason: redirectReason });
          this._ports.step('redirect', a.order);
          env.navigate(a.url);
          return { kind: 'left' };
        default:
          throw new Error('unknown action');
      }
    }
  }

  /**
   * A bank step in the dialog, or at the top level: the action that follows it, or how the flow
   * ended.
   */
  private async _bankStep(a: ChallengeAction, api: Api): Promise<NextAction | FlowEnd> {
    const storage = this._ports.storage();
    const resumed = wasLaunched(storage, a.launchUrl);
    const mode = this._host.challenge;
    if (!resumed && mode === 'redirect') return this._redirect(a);
    // Back from a bank page not finished, with attempts left: this attempt is left (the backend
    // still follows it), and the shopper gets the form back. Without, the dialog waits on it.
    if (resumed && a.order.attemptsLeft) {
      const after = await api.cancel({ reason: 'shopper-left' });
      return { kind: 'abandoned', order: after.order };
    }
    const signal = this._abort.signal;
    const env = this._ports.env();
    // Aborted when the challenge ends: its message wait, poll and listeners stop with it.
    const open = new AbortController();
    const openSignal = AbortSignal.any([signal, open.signal]);
    // A wait that the end of the challenge cancels (it rejects then, which is no news).
    const later = (ms: number, then: () => void) => sleep(env, ms, openSignal).then(then, () => {});
    let end!: (e: ChallengeEnd) => void;
    const ending = new Promise<ChallengeEnd>((resolve) => {
      end = resolve;
      signal.addEventListener('abort', () => resolve('redirect'), { once: true });
      const ends = env.now() + CHALLENGE_TIMEOUT_MS;
      void later(CHALLENGE_TIMEOUT_MS, () => resolve('timeout'));
      void later(CHALLENGE_TIMEOUT_MS - WARN_BEFORE_MS, () =>
        this.dialog._update({
          warning: this._ports.t('time.bank', { time: this._ports.time(ends) }),
        }),
      );
      void returnMessage(
        api.origin,
        a.order.attemptId,
        ['challenge-complete', 'final'],
        openSignal,
      ).then(() => resolve('complete'));
      void this._pollWhileOpen(a, api, openSignal).then((next) => next && resolve(next));
      if (mode === 'auto' && !resumed) {
        // The merchant page's CSP refused the launcher frame: go on at the top level. A slow bank
        // page gets time to load before the "continue in this window" link shows.
        document.addEventListener(
          'securitypolicyviolation',
          (e) => framingRefused(e, a.launchUrl) && resolve('redirect'),
          { capture: true, signal: openSignal },
        );
        void later(FALLBACK_AFTER_MS, () => this.dialog._update({ fallback: true }));
      }
    });

    const size = resumed
      ? '02'
      : fitWindowSize(actionWindowSize(a, this._chosenSize()), innerWidth, innerHeight);
    if (!resumed) markLaunched(storage, a.launchUrl);
    await this.dialog._open({ action: a, size, resumed }, end);
    if (!resumed) {
      this._ports.emit('pay-challenge', {
        phase: 'open',
        version: challengeVersion(a),
        windowSize: size,
      });
    }
    this._ports.step(resumed ? 'waiting' : 'challenge', a.order);

    const ended = await ending;
    open.abort();
    this.dialog._close();
    if (signal.aborted) return { kind: 'left' };
    if (!resumed) {
      this._ports.emit('pay-challenge', {
        phase: 'close',
        reason: typeof ended === 'string' ? ended : 'complete',
      });
    }
    await this._host.updateComplete;
    this._ports.restoreFocus();
    if (typeof ended !== 'string') return ended;
    if (ended === 'redirect') return this._redirect(a);
    if (ended === 'complete') {
      this._ports.step('waiting', a.order, 'challenge-complete');
      return api.next();
    }
    // The shopper cancelled, or left: the session stops taking this payment, and what the
    // backend answers is what the gateway says (the bank may have approved just before).
    const after = await api.cancel({
      reason: ended === 'cancelled' ? 'challenge-cancelled' : 'shopper-left',
    });
    return { kind: ended, order: after.order };
  }

  /**
   * Long-polls the backend while the challenge is open; resolves with the first answer that is
   * not this challenge any more (undefined when stopped). Polls at most every 2 s: while a
   * challenge waits on the browser the backend may answer at once.
   */
  private async _pollWhileOpen(
    a: ChallengeAction,
    api: Api,
    signal: AbortSignal,
  ): Promise<NextAction | undefined> {
    const env = this._ports.env();
    const still = (n: NextAction) =>
      n.action === a.action && 'launchUrl' in n && n.launchUrl === a.launchUrl;
    try {
      for (;;) {
        const started = env.now();
        const next = await api.next(undefined, signal);
        if (signal.aborted) return undefined;
        if (!still(next)) return next;
        const spent = env.now() - started;
        if (spent < CHALLENGE_POLL_MIN_MS) await sleep(env, CHALLENGE_POLL_MIN_MS - spent, signal);
      }
    } catch {
      // Stopped, or the backend is unreachable for now: the message or the timer ends the challenge.
      return undefined;
    }
  }

  /** The launcher page at the top level: it posts the step's form to the bank from there. */
  private _redirect(a: ChallengeAction): FlowEnd {
    markLaunched(this._ports.storage(), a.launchUrl);
    this._ports.emit('pay-redirect', { url: a.launchUrl, reason: 'challenge' });
    this._ports.step('redirect', a.order);
    this._ports.env().navigate(a.launchUrl);
    return { kind: 'left' };
  }

  /**
   * The place of the hidden Method frame and the challenge dialog; the host puts them in its
   * template.
   */
  render() {
    return html`<div class="method-host"></div>${this.dialog.render()}`;
  }
}
