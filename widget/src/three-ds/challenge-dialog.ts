/**
 * The 3-D Secure challenge dialog: its state (the bank step shown, whether a cancel is being
 * confirmed, whether the "continue in this window" link shows), the shopper's ✕, Escape, Keep
 * confirming and Cancel payment, and its markup. The flow (flow.ts) opens it on a bank step with
 * the function that ends the challenge, and closes it once the challenge ended.
 *
 * Its members start with an underscore: the flow is their only reader (the `private` ones, this
 * class alone), and the CDN build shortens such names (vite.config.ts).
 */
import { html, nothing } from 'lit-html';
import type { ChallengeWindowSize, NextAction } from '../../../contract/api-types.js';
import { type FocusHost, focusAfterUpdate } from '../focus.js';
import type { StringKey } from '../i18n/index.js';
import { type ChallengeAction, frameStyle } from './challenge.js';

/**
 * How an open challenge ended: the return page's message (`complete`), the shopper's cancel, the
 * timeout, a move to the top level (`redirect`), or the backend's next action (the long poll
 * answered something else than this challenge).
 */
export type ChallengeEnd = 'complete' | 'cancelled' | 'timeout' | 'redirect' | NextAction;

export interface OpenChallenge {
  action: ChallengeAction;
  size: ChallengeWindowSize;
  /** Resumed after a reload or Back: the step was launched already, so no frame (never re-posted). */
  resumed: boolean;
  /** The shopper pressed ✕ or Escape: ask before cancelling. */
  confirming?: boolean;
  /** The "continue in this window" link (auto mode, after a while). */
  fallback?: boolean;
  /** The words that warn of the challenge's end, once it is near (flow.ts). */
  warning?: string;
}

/** The host element as the dialog reads it: its shadow root, where render() put the dialog. */
export type ChallengeDialogHost = FocusHost;

export class ChallengeDialog {
  /** The open dialog's state; undefined while no challenge is open. */
  challenge: OpenChallenge | undefined;

  private readonly _host: ChallengeDialogHost;
  private readonly _t: (key: StringKey) => string;
  /** Ends the open challenge (the dialog's buttons, Escape). */
  private _end: ((e: ChallengeEnd) => void) | undefined;

  constructor(host: ChallengeDialogHost, t: (key: StringKey) => string) {
    this._host = host;
    this._t = t;
  }

  /**
   * Shows `challenge` in the modal dialog, focus on its heading; `end` ends it (the dialog's
   * buttons, Escape).
   */
  async _open(challenge: OpenChallenge, end: (e: ChallengeEnd) => void): Promise<void> {
    this._end = end;
    this.challenge = challenge;
    this._host.requestUpdate();
    await this._host.updateComplete;
    const dialog = this._dialog();
    dialog?.showModal();
    // Focus the heading: a dialog should not open on its most destructive control (✕).
    dialog?.querySelector<HTMLElement>('h2')?.focus();
  }

  /** The challenge is over (or the flow stopped): no state, no way to end it, the dialog shut. */
  _close(): void {
    this._end = undefined;
    this.challenge = undefined;
    this._dialog()?.close();
    this._host.requestUpdate();
  }

  /** The open dialog's state changes; the dialog shows it. */
  _update(change: Partial<OpenChallenge>): void {
    if (this.challenge) this.challenge = { ...this.challenge, ...change };
    this._host.requestUpdate();
  }

  /** The question to confirm a cancel shown or gone, then focus on the dialog's `selector`. */
  private _confirming(confirming: boolean, selector: string): void {
    this._update({ confirming });
    void focusAfterUpdate(this._host, `dialog ${selector}`);
  }

  /** ✕, Escape, the dialog's close: ask first (the bank's page stays as it is meanwhile). */
  requestCancel = (): void => {
    // Focus on the safe choice, so Enter does not end the payment.
    if (this.challenge) this._confirming(true, '.keep');
  };

  // The question goes, and its buttons with it: focus back on ✕, where the question came from.
  private _keepGoing = (): void => this._confirming(false, '.close');

  private _onDialogCancel = (e: Event): void => {
    // Escape: we close the dialog ourselves once the cancel is decided, so the flow stays in charge.
    e.preventDefault();
    this.requestCancel();
  };

  private _onDialogClose = (): void => {
    // Closed by the browser (Escape or Android back without a cancelable `cancel`, a
    // CloseWatcher): reopen and ask, unless the flow closed it.
    const dialog = this._dialog();
    if (this.challenge && this._end && dialog && !dialog.open) {
      dialog.showModal();
      this.requestCancel();
    }
  };

  /** The dialog render() put in the host's shadow root, once rendered. */
  private _dialog(): HTMLDialogElement | null {
    return this._host.renderRoot.querySelector('dialog');
  }

  /** The dialog, empty while no challenge is open; the flow puts it in the host's template. */
  render() {
    const ch = this.challenge;
    const t = this._t;
    return html`<dialog
      part="dialog"
      class=${ch?.size === '05' && !ch.resumed ? 'full' : ''}
      aria-labelledby="dlg-title"
      aria-describedby="dlg-status"
      @cancel=${this._onDialogCancel}
      @close=${this._onDialogClose}
    >
      ${
        ch
          ? html`<div class="dialog-head">
              <h2 id="dlg-title" tabindex="-1">${t('dialogTitle')}</h2>
              <button type="button" class="close" @click=${this.requestCancel}>
                <span aria-hidden="true">✕</span><span class="sr-only">${t('dialogClose')}</span>
              </button>
            </div>
            ${
              ch.confirming
                ? html`<div class="confirm" role="group" aria-labelledby="dlg-confirm">
                    <p id="dlg-confirm">${t('confirmCancel')}</p>
                    <button type="button" class="keep" @click=${this._keepGoing}>${t('keepConfirming')}</button>
                    <button type="button" class="stop" @click=${() => this._end?.('cancelled')}>${t('cancelPayment')}</button>
                  </div>`
                : nothing
            }
            ${ch.warning ? html`<p class="time" role="alert">${ch.warning}</p>` : nothing}
            ${
              ch.resumed
                ? html`<p id="dlg-status" class="resumed">${t('resumedDetail')}</p>`
                : html`<p id="dlg-status" class="sr-only">${t('step.challenge')}</p>
                    <iframe
                      class="challenge-frame"
                      part="challenge-frame"
                      title=${t('dialogTitle')}
                      src=${ch.action.launchUrl}
                      style=${frameStyle(ch.size)}
                      allow="payment *; publickey-credentials-get *; publickey-credentials-create *"
                    ></iframe>`
            }
            ${
              ch.fallback
                ? html`<button type="button" class="fallback" @click=${() => this._end?.('redirect')}>${t('dialogFallback')}</button>`
                : nothing
            }`
          : nothing
      }
    </dialog>`;
  }
}
