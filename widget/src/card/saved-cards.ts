/**
 * A returning shopper's saved cards: the list the session offers (brand, last four, expiry; an
 * expired card shown but not selectable) above "Use another card", the most recent usable one
 * chosen, each card once (the backend lists a card saved twice once; a backend that does not is
 * shown it once all the same). The card details come from the backend; the browser holds only each card's opaque
 * handle, valid in this session alone. The chosen card's security code is the card form's
 * (card-form.ts).
 *
 * Its members start with an underscore: the element is their only reader (the `private` ones, this
 * class alone), and the CDN build shortens such names (vite.config.ts).
 */
import { html, nothing, type TemplateResult } from 'lit-html';
import type { SavedCardView, SessionView } from '../../../contract/api-types.js';
import { BRANDS, type Brand } from '../../../contract/card/brands.js';
import type { ReactiveControllerHost } from '../element-base.js';
import type { StringKey } from '../i18n/index.js';

/** Our brand for the card, when the backend knows the gateway's name of it. */
export function brandOfSaved(card: SavedCardView): Brand | undefined {
  return BRANDS.find((b) => b.id === card.brandId);
}

export class SavedCards {
  /** The handle of the card chosen; '' for "Use another card". */
  _chosen = '';
  private readonly _host: ReactiveControllerHost;

  constructor(host: ReactiveControllerHost) {
    this._host = host;
  }

  /** A session's cards: the first usable one chosen (the list is most recent first). */
  _offer(info: SessionView): void {
    this._chosen = info.savedCards?.find((c) => !c.expired)?.handle ?? '';
  }

  _card(info: SessionView | undefined): SavedCardView | undefined {
    return info?.savedCards?.find((c) => c.handle === this._chosen);
  }

  private _choose = (e: Event): void => {
    this._chosen = (e.target as HTMLInputElement).value;
    this._host.requestUpdate();
  };

  /**
   * The list, then `form`: the chosen card's security code, or the form for another card. `comma`
   * parts each card's words in the language shown (Arabic «، »).
   */
  _render(
    info: SessionView,
    busy: boolean,
    t: (key: StringKey) => string,
    form: TemplateResult,
    comma: string,
  ): TemplateResult {
    const option = (value: string, label: string, expired?: boolean) =>
      html`<label class="saved" part="saved-card"><input type="radio" name="saved"
        .value=${value} .checked=${this._chosen === value} ?disabled=${expired}
        @change=${this._choose} /> ${label}${
          // The comma inside the hint, as the build trims the space that opens a template.
          expired ? html`<span class="hint">${comma}${t('savedExpired')}</span>` : nothing
        }</label>`;
    // Each label once: two alike (one card saved twice) could not be told apart. The size is read
    // before the add and after it: they differ only for a label not listed yet.
    const listed = new Set<string>();
    return html`<fieldset ?disabled=${busy} part="saved-cards"><legend>${t('savedCards')}</legend>
      ${info.savedCards!.map((c) => {
        const label = `${brandOfSaved(c)?.name ?? c.brand} •••• ${c.last4}${comma}${c.expMonth}/${c.expYear.slice(-2)}`;
        return listed.size !== listed.add(label).size
          ? option(c.handle, label, c.expired)
          : nothing;
      })}${option('', t('useAnotherCard'))}</fieldset>${form}`;
  }
}
