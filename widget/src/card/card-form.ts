/**
 * The card form: its four fields, what the shopper has typed into them so far (the brand, which
 * fields they have left), formatting as they type, each field's error (the backend's too, by
 * the backend's name of the field), focus, and the box to save the card. Card data lives in the
 * inputs only: this reads them when asked and wipes them when told.
 *
 * Its members start with an underscore: the element is their only reader (the `private` ones, this
 * class alone), and the CDN build shortens such names (vite.config.ts).
 */
import { html, nothing, type TemplateResult } from 'lit-html';
import { type Brand, cvcLength, detectBrand } from '../../../contract/card/brands.js';
import { type FocusHost, focusAfterUpdate } from '../focus.js';
import type { StringKey } from '../i18n/index.js';
import { caretAfterDigits, digitsOnly, formatCardNumber, formatExpiry } from './format.js';
import {
  CARD_FIELDS,
  type CardField,
  type CardValues,
  cvcProblem,
  type FieldProblem,
  validateCard,
} from './validate.js';

const AUTOCOMPLETE: Record<CardField, string> = {
  number: 'cc-number',
  expiry: 'cc-exp',
  cvc: 'cc-csc',
  name: 'cc-name',
};

/** Backend field names (`error.field`, with or without `card.`) that point at one of our inputs. */
const SERVER_FIELDS: Record<string, CardField> = {
  number: 'number',
  expMonth: 'expiry',
  expYear: 'expiry',
  cvc: 'cvc',
  holder: 'name',
};

/** The input a backend's `error.field` names, when it is one of ours. */
export const fieldOfServer = (name: string): CardField | undefined =>
  SERVER_FIELDS[name.replace(/^card\./, '')];

/** One value per field, in the fields' order. */
const eachField = <T>(value: (field: CardField) => T) =>
  Object.fromEntries(CARD_FIELDS.map((f) => [f, value(f)])) as Record<CardField, T>;

export interface CardFormPorts {
  t(key: StringKey, vars?: Record<string, string | number>): string;
  now(): number;
  /** A field changed: which fields are valid now (never their values). */
  changed(fields: Record<CardField, boolean>, brand: Brand | undefined): void;
  /** Says `text` in the element's polite live region. */
  announce(text: string): void;
  /**
   * The saved card chosen, if any: the form is then its security code alone, as long as its
   * brand says (3 or 4 digits when the brand is unknown), and may be left empty when `optional`.
   */
  saved(): SavedChoice | undefined;
  /** The session asks whether to save a card typed (the box shows under the fields). */
  asksToSave(): boolean;
}

export interface SavedChoice {
  brand: Brand | undefined;
  optional: boolean;
}

export class CardForm {
  /** The brand of the number typed so far (undefined while it cannot be told). */
  _brand: Brand | undefined;
  /** Each field's error message, once there is one to show. */
  _errors: Partial<Record<CardField, string>> = {};
  private _touched = new Set<CardField>();
  private readonly _host: FocusHost;
  private readonly _ports: CardFormPorts;

  constructor(host: FocusHost, ports: CardFormPorts) {
    this._host = host;
    this._ports = ports;
  }

  /** The saved card chosen (the element's list says which). */
  _saved(): SavedChoice | undefined {
    return this._ports.saved();
  }

  _input(field: CardField): HTMLInputElement | null {
    return this._host.renderRoot.querySelector<HTMLInputElement>(`input[name="${field}"]`);
  }

  _values(): CardValues {
    return eachField((f) => this._input(f)?.value ?? '');
  }

  /** The shopper ticked "Save this card for next time". */
  _keep(): boolean {
    return !!this._host.renderRoot.querySelector<HTMLInputElement>('input[name="saveCard"]')
      ?.checked;
  }

  /** Wipes the card once it is no longer needed (the name, which another card of the same
   * shopper shares, stays). */
  _clear(): void {
    for (const f of CARD_FIELDS) {
      const el = this._input(f);
      if (el && f !== 'name') el.value = '';
    }
    this._brand = undefined;
    this._host.requestUpdate();
  }

  /** An empty form for another card: no card, no errors, no field left yet. */
  _reset(): void {
    this._clear();
    this._errors = {};
    this._touched.clear();
  }

  /** Every field checked as on Pay; the invalid ones, in the order focus visits them. */
  _check(): CardField[] {
    const fields: readonly CardField[] = this._saved() ? ['cvc'] : CARD_FIELDS;
    for (const f of fields) this._touched.add(f);
    this._validate(fields);
    return fields.filter((f) => this._errors[f]);
  }

  /** The brand the security code follows: the saved card's, else the number's. */
  private get _cvcBrand(): Brand | undefined {
    const saved = this._saved();
    return saved ? saved.brand : this._brand;
  }

  /** The backend refused `field`: its message on that field, and focus there. */
  _refuse(field: CardField, message: string): void {
    this._errors = { ...this._errors, [field]: message };
    this._focus(field);
  }

  _focus(field: CardField): void {
    void focusAfterUpdate(this._host, `input[name="${field}"]`);
  }

  private _message(field: CardField, problem: FieldProblem): string {
    if (field === 'cvc' && problem === 'invalid')
      return this._ports.t('cvc.invalid', { n: cvcLength(this._cvcBrand) });
    return this._ports.t(`${field}.${problem}` as StringKey);
  }

  private _problems() {
    const values = this._values();
    const problems = validateCard(values, new Date(this._ports.now()));
    const saved = this._saved();
    if (saved) problems.cvc = cvcProblem(values.cvc, saved.brand, saved.optional);
    return problems;
  }

  private _validate(fields: readonly CardField[], problems = this._problems()): void {
    const errors = { ...this._errors };
    for (const f of fields) {
      const p = problems[f];
      if (p) errors[f] = this._message(f, p);
      else delete errors[f];
    }
    this._errors = errors;
    this._host.requestUpdate();
  }

  private _onInput = (e: InputEvent): void => {
    const el = e.target as HTMLInputElement;
    const field = el.name as CardField;
    const deleting = (e.inputType ?? '').startsWith('delete');
    if (field === 'number') {
      const caret = el.selectionStart ?? el.value.length;
      const before = digitsOnly(el.value.slice(0, caret)).length;
      const brand = detectBrand(digitsOnly(el.value));
      el.value = formatCardNumber(el.value, brand);
      if (el.matches(':focus')) {
        const pos = caretAfterDigits(el.value, before);
        el.setSelectionRange(pos, pos);
      }
      this._brand = brand;
      this._host.requestUpdate();
    } else if (field === 'expiry') {
      el.value = formatExpiry(el.value, deleting);
    } else if (field === 'cvc') {
      // A saved card of a brand we do not know may have either length.
      el.value = digitsOnly(el.value).slice(
        0,
        this._saved() && !this._cvcBrand ? 4 : cvcLength(this._cvcBrand),
      );
    }
    // Errors update live once a field has been left once; before that we do not nag mid-typing.
    const problems = this._problems();
    if (this._touched.has(field) || this._errors[field]) this._validate([field], problems);
    this._ports.changed(
      eachField((f) => !problems[f]),
      this._brand,
    );
  };

  private _onBlur = (e: FocusEvent): void => {
    const el = e.target as HTMLInputElement;
    const field = el.name as CardField;
    if (!el.value && !this._touched.has(field)) return;
    this._touched.add(field);
    this._validate([field]);
    const msg = this._errors[field];
    if (msg) this._ports.announce(msg);
  };

  /**
   * One card field. `hint`: the expiry and CVC, which sit side by side, each with a hint. No
   * input has a maxlength: the browser cuts pasted or autofilled text at maxlength before the
   * input handler sees it, so "12/2030" became "12/20" (expired) and " 123" a two-digit code;
   * the handler keeps each field to its length from the digits instead (_onInput).
   * `aria-invalid=${!!error}`: Lit writes a boolean as "true" or "false".
   */
  private _field(
    field: CardField,
    o: { hint?: string; badge?: string | undefined } = {},
  ): TemplateResult {
    const error = this._errors[field];
    const describedBy = `${o.hint ? `hint-${field} ` : ''}${o.badge ? 'brand ' : ''}err-${field}`;
    return html`<div class="field ${o.hint ? 'half' : ''}" part="field field-${field}">
      <label for="in-${field}" part="label label-${field}">${this._ports.t(field)}</label>
      ${o.hint ? html`<span id="hint-${field}" class="hint" part="hint">${o.hint}</span>` : nothing}
      <div class="wrap">
        <input
          id="in-${field}"
          name=${field}
          part="input input-${field}"
          type="text"
          autocomplete=${AUTOCOMPLETE[field]}
          inputmode=${field === 'name' ? 'text' : 'numeric'}
          dir=${field === 'name' ? nothing : 'ltr'}
          spellcheck="false"
          autocapitalize=${field === 'name' ? 'words' : 'off'}
          placeholder=${field === 'number' ? '1234 1234 1234 1234' : nothing}
          aria-invalid=${!!error}
          aria-describedby=${describedBy}
          @input=${this._onInput}
          @blur=${this._onBlur}
        />
        ${o.badge ? html`<span id="brand" class="brand" part="brand">${o.badge}</span>` : nothing}
      </div>
      <div id="err-${field}" class="error" part="error error-${field}">${error ?? ''}</div>
    </div>`;
  }

  /**
   * The four fields (a saved card's security code alone), disabled while `busy`, and the box to
   * save a card typed when the session asks.
   */
  _render(busy: boolean): TemplateResult {
    const t = this._ports.t;
    const saved = this._saved();
    const cvc = this._field('cvc', {
      hint: t(cvcLength(this._cvcBrand) === 4 ? 'cvcHint4' : 'cvcHint3'),
    });
    return html`<fieldset ?disabled=${busy}>${
      saved
        ? cvc
        : html`${this._field('number', { badge: this._brand?.name })}
      ${this._field('expiry', { hint: t('expiryHint') })}${cvc}${this._field('name')}`
    }</fieldset>${
      !saved && this._ports.asksToSave()
        ? html`<label class="consent" part="save-card"><input type="checkbox" name="saveCard"
            ?disabled=${busy} /> ${t('saveCard')}</label>`
        : nothing
    }`;
  }
}
