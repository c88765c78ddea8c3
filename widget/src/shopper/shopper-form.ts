/**
 * The contact part (e-mail, phone) and the billing-address part (country, street, city, postal
 * code, state where the country needs one) of `<pay-checkout>`: shown for the groups the session
 * asks (`SessionView.collect`, less what a chosen saved card knows), started from what the
 * merchant sent (`prefill`), checked per country as the shopper types, and read into the pay
 * request's `shopper`. Its fields carry the `autocomplete` tokens browsers and password managers
 * fill by. What the shopper typed is kept across attempts: they are not asked twice (3.3.7).
 *
 * Its members start with an underscore: the element is their only reader (the `private` ones,
 * this class alone), and the CDN build shortens such names (vite.config.ts).
 */
import { html, nothing, type TemplateResult } from 'lit-html';
import { POSTAL_CODE_FORMATS } from '../../../contract/address.js';
import type { CollectGroup, SessionView, ShopperDetails } from '../../../contract/api-types.js';
import { type FocusHost, focusAfterUpdate } from '../focus.js';
import type { StringKey } from '../i18n/index.js';
import { countryChoices, startCountry } from './countries.js';
import {
  SHOPPER_FIELDS,
  type ShopperField,
  type ShopperProblem,
  type ShopperValues,
  shopperDetails,
  shopperProblem,
  shownFields,
} from './validate.js';

const AUTOCOMPLETE: Record<ShopperField, string> = {
  email: 'email',
  phone: 'tel',
  country: 'billing country',
  address1: 'billing address-line1',
  city: 'billing address-level2',
  zipCode: 'billing postal-code',
  state: 'billing address-level1',
};

/** Values written left to right in every language (as the card's digits are). */
const LTR: readonly ShopperField[] = ['email', 'phone', 'zipCode'];

export interface ShopperFormPorts {
  t(key: StringKey): string;
  /** The language the element shows (country names follow it). */
  language(): string;
  /** The groups to ask now (none: the parts are not shown). */
  groups(): CollectGroup[];
  /** Says `text` in the element's polite live region. */
  announce(text: string): void;
}

export class ShopperForm {
  /** Each shown field's error message, once there is one to show. */
  _errors: Partial<Record<ShopperField, string>> = {};
  private _v = Object.fromEntries(SHOPPER_FIELDS.map((f) => [f, ''])) as ShopperValues;
  private _touched = new Set<ShopperField>();
  /** The field the backend refused last: its error stays until the shopper changes it. */
  private _refused: ShopperField | undefined;
  private readonly _host: FocusHost;
  private readonly _ports: ShopperFormPorts;

  constructor(host: FocusHost, ports: ShopperFormPorts) {
    this._host = host;
    this._ports = ports;
  }

  /** A session read: what the merchant sent fills the fields still empty; the country starts. */
  _offer(info: SessionView): void {
    const p = info.prefill;
    const given: Partial<ShopperValues> = {
      email: p?.email,
      phone: p?.phone,
      ...p?.billingAddress,
      country: startCountry(info, navigator.languages),
    };
    for (const f of SHOPPER_FIELDS) this._v[f] ||= given[f] ?? '';
  }

  /** Whether `field` (an invalid field's name, a backend's) is one of this form's. */
  _owns(field: string): field is ShopperField {
    return SHOPPER_FIELDS.includes(field as ShopperField);
  }

  /** What the pay request carries. */
  _details(): ShopperDetails {
    return shopperDetails(this._ports.groups(), this._v);
  }

  private get _shown(): ShopperField[] {
    return shownFields(this._ports.groups(), this._v.country);
  }

  /** Every shown field checked as on Pay; the invalid ones, in the order focus visits them. */
  _check(): ShopperField[] {
    const shown = this._shown;
    for (const f of shown) this._touched.add(f);
    this._validate();
    return shown.filter((f) => this._errors[f]);
  }

  /** The backend refused `field`: our words for it on that field (the backend's are English);
   * what to say. */
  _refuse(field: ShopperField): string {
    this._refused = field;
    this._touched.add(field);
    this._validate();
    void focusAfterUpdate(this._host, `[name="${field}"]`);
    return this._errors[field] ?? '';
  }

  private _message(f: ShopperField, p: ShopperProblem): string {
    // A country refused by the backend: choose another (the list has only valid ones).
    return this._ports.t(f === 'country' ? 'country.required' : (`${f}.${p}` as StringKey));
  }

  /** The errors of the shown fields the shopper has left (and the one the backend refused). */
  private _validate(): void {
    const errors: Partial<Record<ShopperField, string>> = {};
    for (const f of this._shown) {
      const p = shopperProblem(f, this._v) ?? (f === this._refused ? 'invalid' : undefined);
      if (p && this._touched.has(f)) errors[f] = this._message(f, p);
    }
    this._errors = errors;
    this._host.requestUpdate();
  }

  private _onInput = (e: Event): void => {
    const el = e.target as HTMLInputElement;
    const f = el.name as ShopperField;
    this._v[f] = el.value;
    if (this._refused === f) this._refused = undefined;
    // Errors update live once a field has been left once (a new country re-checks the code).
    this._validate();
  };

  private _onBlur = (e: FocusEvent): void => {
    const el = e.target as HTMLInputElement;
    const f = el.name as ShopperField;
    if (!el.value && !this._touched.has(f)) return;
    this._touched.add(f);
    this._validate();
    const msg = this._errors[f];
    if (msg) this._ports.announce(msg);
  };

  /** One field: its label, its input (the country a select), its error tied to it. */
  private _field(f: ShopperField): TemplateResult {
    const error = this._errors[f];
    const v = this._v[f];
    const zipDigits =
      f === 'zipCode' && /^(\\d\{\d\}( \?)?)+$/.test(POSTAL_CODE_FORMATS[this._v.country] ?? '');
    const control =
      f === 'country'
        ? html`<select id="in-country" name="country" part="input input-country"
            autocomplete=${AUTOCOMPLETE.country} aria-invalid=${!!error} aria-describedby="err-country"
            @change=${this._onInput} @blur=${this._onBlur}>
            <option value="" .selected=${!v}></option>
            ${countryChoices(this._ports.language()).map(
              ([c, name]) => html`<option value=${c} .selected=${c === v}>${name}</option>`,
            )}</select>`
        : html`<input id="in-${f}" name=${f} part="input input-${f}"
            type=${f === 'email' ? 'email' : f === 'phone' ? 'tel' : 'text'}
            autocomplete=${AUTOCOMPLETE[f]} inputmode=${zipDigits ? 'numeric' : nothing}
            dir=${LTR.includes(f) ? 'ltr' : nothing} spellcheck="false"
            maxlength=${f === 'address1' || f === 'city' ? 50 : nothing}
            autocapitalize=${f === 'email' ? 'off' : f === 'zipCode' || f === 'state' ? 'characters' : nothing}
            .value=${v} aria-invalid=${!!error} aria-describedby="err-${f}"
            @input=${this._onInput} @blur=${this._onBlur} />`;
    return html`<div class="field ${f === 'city' || f === 'zipCode' || f === 'state' ? 'half' : ''}"
      part="field field-${f}"><label for="in-${f}" part="label label-${f}">${this._ports.t(f)}</label>
      ${control}<div id="err-${f}" class="error" part="error error-${f}">${error ?? ''}</div></div>`;
  }

  /** The contact part, then the address part: only their shown fields, disabled while `busy`. */
  _render(busy: boolean): TemplateResult {
    const shown = this._shown;
    const part = (name: string, legend: StringKey, contact: boolean) => {
      const fields = shown.filter((f) => (f === 'email' || f === 'phone') === contact);
      return fields.length
        ? html`<fieldset ?disabled=${busy} part=${name}><legend>${this._ports.t(legend)}</legend>${fields.map(
            (f) => this._field(f),
          )}</fieldset>`
        : nothing;
    };
    return html`${part('contact', 'contact', true)}${part('billing-address', 'billingAddress', false)}`;
  }
}
