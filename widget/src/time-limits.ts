/**
 * The time limits a shopper meets, warned of before they end (WCAG 2.2.1 Timing Adjustable): the
 * session's life, which the shopper may extend (the backend's `POST /widget/extend`, bounded
 * there), and the bank's challenge, which no one here can extend (three-ds/flow.ts warns of it
 * in the dialog with `clockTime`). This controller is the session's: WARN_BEFORE_MS before its
 * end a warning (role `alert`, so it is spoken) shows above the form with "I need more time"
 * while the session takes an extension, or says it cannot stay open longer; at its end, with no
 * payment under way, the host shows the expiry. A payment under way outlives the session, so no
 * warning shows meanwhile.
 *
 * Its members start with an underscore: the element is their only reader (the `private` ones, this
 * class alone), and the CDN build shortens such names (vite.config.ts).
 */
import { html, nothing } from 'lit-html';
import type { ExtendAnswer, SessionView } from '../../contract/api-types.js';
import type { Api } from './api.js';
import type { ReactiveController } from './element-base.js';
import type { Env } from './env.js';
import { type FocusHost, focusAfterUpdate } from './focus.js';
import type { StringKey } from './i18n/index.js';

/** How long before a limit ends its warning shows: WCAG asks for at least 20 s to act on it. */
export const WARN_BEFORE_MS = 120_000;

/** `ms` (a time on the clock of `Date.now()`) as the shopper's language writes the hour: "12:58". */
export const clockTime = (lang: string, ms: number): string =>
  new Intl.DateTimeFormat(lang, { timeStyle: 'short' }).format(ms);

/** Its members start with an underscore: the CDN build shortens such names. */
export interface SessionTimePorts {
  _api(): Api;
  _env(): Env;
  _t(key: StringKey, vars?: Record<string, string | number>): string;
  /** The language shown (for the hour). */
  _lang(): string;
  /** Whether the form is up for a payment (nothing under way, no result shown). */
  _open(): boolean;
  /** The session reached its end while the form was up: the host reads it again. */
  _expired(): void;
  /** The token the extension answered: the element's calls carry it from now on. */
  _token(token: string): void;
}

export class SessionTime implements ReactiveController {
  /** The session's expiry as the backend wrote it (what an extension names). */
  private _expiresAt = '';
  /** Its end on the env clock; 0 while no session is watched. */
  private _end = 0;
  private _left = 0;
  /** The warning's words; '' while none shows. */
  private _said = '';
  /** Whether it offers "I need more time". */
  private _ask = false;
  /** The warning's and the end's timers, while the form is up (undefined otherwise). */
  private _timers: number[] | undefined;
  private readonly _host: FocusHost & Element;
  private readonly _ports: SessionTimePorts;

  constructor(host: FocusHost & Element, ports: SessionTimePorts) {
    this._host = host;
    this._ports = ports;
    host.addController(this);
  }

  /**
   * Timed only while the form is up: a payment under way outlives the session, and the result
   * panel ends it. After each render, so the timers follow the host's state.
   */
  hostUpdated(): void {
    const open = this._end > 0 && this._host.isConnected && this._ports._open();
    if (open === !!this._timers) return;
    this._stop();
    if (!open) return;
    const env = this._ports._env();
    const inMs = this._end - env.now();
    this._timers = [
      env.setTimeout(() => this._say(), inMs - WARN_BEFORE_MS),
      env.setTimeout(() => this._ports._expired(), inMs),
    ];
  }

  hostDisconnected(): void {
    this._stop();
  }

  private _stop(): void {
    const env = this._ports._env();
    for (const id of this._timers ?? []) env.clearTimeout(id);
    this._timers = undefined;
  }

  /** The session as read: its warning and its end, timed from now. */
  _watch(info: SessionView): void {
    this._set(
      info.expiresAt,
      info.expiresInMs ?? Date.parse(info.expiresAt) - this._ports._env().now(),
      info.extensionsLeft ?? 0,
    );
  }

  /** A new end: no warning until its time (the next render times it). */
  private _set(expiresAt: string, inMs: number, left: number): void {
    this._stop();
    this._said = '';
    this._expiresAt = expiresAt;
    this._end = this._ports._env().now() + inMs;
    this._left = left;
    this._host.requestUpdate();
  }

  /**
   * The warning, with "I need more time" while the session takes an extension and it was not just
   * given one (the new end says it was); `focus`: on the words, the button clicked being gone.
   */
  private _say(extended?: boolean, focus?: boolean): void {
    const p = this._ports;
    this._ask = !extended && this._left > 0;
    this._said = `${p._t('time.session', { time: clockTime(p._lang(), this._end) })}${this._left ? '' : ` ${p._t('time.last')}`}`;
    this._host.requestUpdate();
    if (focus) void focusAfterUpdate(this._host, '.time');
  }

  /** "I need more time": the backend's answer, or, refused, the words that say it cannot be. */
  private _more = async (): Promise<void> => {
    let kept: ExtendAnswer | undefined;
    try {
      kept = await this._ports._api().extend({ expiresAt: this._expiresAt });
    } catch {
      this._left = 0;
    }
    if (kept) {
      this._ports._token(kept.token);
      this._set(kept.expiresAt, kept.expiresInMs, kept.extensionsLeft);
    }
    this._say(!!kept, true);
  };

  /** The warning above the form while it is up; nothing otherwise. */
  render() {
    return this._said && this._ports._open()
      ? // The space between the words and the button in this template: the build trims the one
        // that would open the button's.
        html`<p class="notice time" part="notice" role="alert" tabindex="-1">${this._said} ${
          this._ask
            ? html`<button type="button" part="button" @click=${this._more}>${this._ports._t('time.more')}</button>`
            : nothing
        }</p>`
      : nothing;
  }
}
