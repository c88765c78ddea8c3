/**
 * The element's words and direction, as a Lit reactive controller (Shoelace's LocalizeController
 * is the model): the language its host speaks (the host's `locale`, else the page's `lang`, else
 * the browser's), that language's words once its file is here with the merchant's `strings` laid
 * over them, a string by its key with its slots filled, an amount in the shopper's conventions,
 * and the `dir` the host's content takes.
 *
 * Its members start with an underscore: the element is their only reader (the `private` ones, this
 * class alone), and the CDN build shortens such names (vite.config.ts).
 */

import { isRightToLeft, languageOf } from '../../../contract/languages.js';
import type { ReactiveController, ReactiveControllerHost } from '../element-base.js';
import { formatAmount } from './amount.js';
import { en, type StringKey, type Strings } from './en.js';
import { fill } from './fill.js';
import { loadLanguage } from './load.js';
import { withOverrides } from './strings.js';

/** The host element as the controller reads it: its `locale` and `strings` properties. */
export interface LocalizeHost extends ReactiveControllerHost, HTMLElement {
  readonly locale: string | undefined;
  readonly strings: Partial<Record<StringKey, string>> | undefined;
}

export class LocalizeController implements ReactiveController {
  /** The words shown, once the language's file is here (until then the element shows none). */
  _words: Strings | undefined;
  /** Settles once the words last asked for are here (English when their file cannot be had). */
  _ready: Promise<unknown> = Promise.resolve();
  /** The locale and the merchant's strings the words were last asked for. */
  private _for: unknown[] = [];
  private readonly _host: LocalizeHost;

  constructor(host: LocalizeHost) {
    this._host = host;
    host.addController(this);
  }

  /** Before each render: the words again when the locale or the merchant's strings changed. */
  hostUpdate(): void {
    const wanted = [this._lang, this._host.strings];
    if (wanted.some((w, i) => w !== this._for[i])) {
      this._for = wanted;
      this._ready = this._load(wanted);
    }
  }

  /** The locale asked for: the host's, else the page's `lang`, else the browser's. */
  get _lang(): string {
    return this._host.locale || document.documentElement.lang || navigator.language || 'en';
  }

  /** The language shown: the locale's, when the element speaks it (or the merchant gave words). */
  get _language(): string {
    return languageOf(this._lang) ?? (this._host.strings ? this._lang : 'en');
  }

  /**
   * The page's `dir` (on this element or an ancestor) when it sets one, else the language's: an
   * Arabic checkout on an English page still reads right to left.
   */
  get _dir(): string | undefined {
    if (this._host.closest('[dir]')) return undefined;
    return isRightToLeft(this._language) ? 'rtl' : 'ltr';
  }

  private async _load(wanted: unknown[]): Promise<void> {
    const base = await loadLanguage(languageOf(wanted[0] as string) ?? 'en');
    if (wanted !== this._for) return;
    const { strings, problems } = withOverrides(base, this._host.strings);
    if (problems.length) console.warn('<pay-checkout>: strings refused', problems);
    this._words = strings;
    this._host.requestUpdate();
  }

  /**
   * The string of `key` in the words shown (English until they are here), its plural forms chosen
   * and its slots filled in the language shown (fill.ts).
   */
  _t(key: StringKey, vars?: Record<string, string | number>): string {
    return fill((this._words ?? en)[key], vars, this._language);
  }

  /**
   * `items` as one list in the language shown: "A, B and C", "A, B und C", "A وB وC" (Arabic
   * joins with «و», never a Latin comma).
   */
  _list(items: string[]): string {
    try {
      return new Intl.ListFormat(this._language).format(items);
    } catch {
      // A merchant's tag Intl cannot read.
      return items.join(', ');
    }
  }

  /**
   * The comma that separates a phrase's parts (a saved card's "Visa •••• 4242, 12/30, Expired"):
   * Arabic script writes «،».
   */
  get _comma(): string {
    return /^(ar|fa|ur)\b/i.test(this._language) ? '، ' : ', ';
  }

  /** `amount` of `currency` as the locale writes it ("€10.42", "10,42 €"). */
  _amount(amount: string, currency: string): string {
    return formatAmount(amount, currency, this._lang);
  }
}
