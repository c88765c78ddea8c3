/**
 * The element's base: Lit's reactive update cycle, as much of it as `<pay-checkout>` uses, over
 * lit-html (Lit's renderer, which does the real work: templates, parts, event bindings).
 *
 * Why not LitElement: the CDN file's budget is 20,480 B gzip -9 with every feature inside, and
 * LitElement with @lit/reactive-element and its style helpers cost about 2,600 B of it over
 * lit-html alone (one small element bundled both ways, 2026-11-29); with this base instead the
 * file went from 21,488 B to 19,724 B (test/bench/widget-size.mjs). What it keeps, with
 * Lit's meaning and names, so that the element and its controllers read as Lit code:
 * - `static properties`: an accessor per property, an attribute per property that is not
 *   `state` (its name in lower case unless `attribute` names it; read as text, as Lit's default
 *   converter does; never reflected), values set before the element was defined kept;
 * - one update per microtask, only once connected: `willUpdate(changed)`, the controllers'
 *   `hostUpdate`, `render()` into the shadow root, then `hostUpdated`, `updated(changed)`;
 *   a property set in `willUpdate` joins the update under way, as in Lit;
 * - `updateComplete` (true when no other update was asked meanwhile), `requestUpdate()`,
 *   `addController`, `hasUpdated`;
 * - `static styles` as one CSS text, adopted as a constructed style sheet shared by every
 *   element, or a `<style>` (with `window.litNonce`, as Lit) where a browser cannot adopt one.
 * What it leaves out (none is used here): reflected attributes, converters and `hasChanged`
 * options, `shouldUpdate`, `firstUpdated`, `removeController`, async directives' reconnection,
 * decorators. test/widget/element-base.test.ts holds it to the behaviour above.
 */
import { render } from 'lit-html';

/** A controller of the element (Lit's interface of the same name). */
export interface ReactiveController {
  hostConnected?(): void;
  hostDisconnected?(): void;
  hostUpdate?(): void;
  hostUpdated?(): void;
}

/** What a controller may ask of its element (Lit's interface of the same name). */
export interface ReactiveControllerHost {
  addController(controller: ReactiveController): void;
  requestUpdate(): void;
  readonly updateComplete: Promise<boolean>;
}

/**
 * A property's options: `attribute` its attribute's name (`false`: none); `state` internal, no
 * attribute.
 */
export interface PropertyOptions {
  attribute?: string | false;
  state?: boolean;
}

/** The properties changed since the last update, each with its value before. */
export type PropertyValues = Map<PropertyKey, unknown>;

declare global {
  interface Window {
    /** Lit's name for the nonce of a `<style>` written where style sheets cannot be adopted. */
    litNonce?: string;
  }
}

/** Per class, its style sheet, made once and adopted by every element of the class. */
const sheets = new WeakMap<typeof ElementBase, CSSStyleSheet>();

/** Per class, attribute name → property name, made once (customElements.define asks first). */
const attributeMaps = new WeakMap<typeof ElementBase, Map<string, string>>();

/** The class's attributes, its accessors defined on the first call. */
function attributesOf(element: typeof ElementBase): Map<string, string> {
  let attributes = attributeMaps.get(element);
  if (!attributes) {
    attributes = new Map();
    for (const [name, options] of Object.entries(element.properties)) {
      Object.defineProperty(element.prototype, name, {
        get(this: ElementBase) {
          return this._values.get(name);
        },
        set(this: ElementBase, value: unknown) {
          const old = this._values.get(name);
          this._values.set(name, value);
          this.requestUpdate(name, old);
        },
        configurable: true,
      });
      const { attribute = name.toLowerCase(), state } = options;
      if (attribute && !state) attributes.set(attribute, name);
    }
    attributeMaps.set(element, attributes);
  }
  return attributes;
}

export class ElementBase extends HTMLElement implements ReactiveControllerHost {
  static properties: Record<string, PropertyOptions> = {};
  /** The shadow root's CSS. */
  static styles = '';

  static get observedAttributes(): string[] {
    // biome-ignore lint/complexity/noThisInStatic: the subclass being defined, not this base
    return [...attributesOf(this).keys()];
  }

  /** The shadow root, made at the first connection. */
  declare renderRoot: ShadowRoot;
  hasUpdated = false;
  /** The reactive properties' values (the accessors read and write them). */
  _values = new Map<PropertyKey, unknown>();
  private _changed: PropertyValues = new Map();
  private _pending = false;
  private _controllers: ReactiveController[] = [];
  /** Values a page set on the element before it was defined: they win over the defaults. */
  private _early = new Map<string, unknown>();
  private _connect!: () => void;
  private _done = new Promise<boolean>((resolve) => {
    this._connect = () => resolve(true);
  });

  constructor() {
    super();
    for (const name of Object.keys((this.constructor as typeof ElementBase).properties)) {
      if (Object.hasOwn(this, name)) {
        this._early.set(name, (this as Record<string, unknown>)[name]);
        delete (this as Record<string, unknown>)[name];
      }
    }
    this.requestUpdate();
  }

  get updateComplete(): Promise<boolean> {
    return this._done;
  }

  addController(controller: ReactiveController): void {
    this._controllers.push(controller);
    if (this.isConnected) controller.hostConnected?.();
  }

  /** Asks for an update; with a name, records that property's value before (unless unchanged). */
  requestUpdate(name?: PropertyKey, old?: unknown): void {
    if (name !== undefined) {
      if (Object.is(old, this._values.get(name))) return;
      if (!this._changed.has(name)) this._changed.set(name, old);
    }
    if (!this._pending) {
      this._pending = true;
      this._done = this._enqueue();
    }
  }

  connectedCallback(): void {
    if (!this.renderRoot) {
      this.renderRoot = this.attachShadow({ mode: 'open' });
      const element = this.constructor as typeof ElementBase;
      const css = element.styles;
      if ('adoptedStyleSheets' in Document.prototype && 'replaceSync' in CSSStyleSheet.prototype) {
        let sheet = sheets.get(element);
        if (!sheet) {
          sheet = new CSSStyleSheet();
          sheet.replaceSync(css);
          sheets.set(element, sheet);
        }
        this.renderRoot.adoptedStyleSheets = [sheet];
      } else {
        const style = document.createElement('style');
        style.nonce = window.litNonce ?? '';
        style.textContent = css;
        this.renderRoot.append(style);
      }
    }
    this._connect();
    for (const c of this._controllers) c.hostConnected?.();
  }

  disconnectedCallback(): void {
    for (const c of this._controllers) c.hostDisconnected?.();
  }

  attributeChangedCallback(attribute: string, _old: string | null, value: string | null): void {
    const name = attributesOf(this.constructor as typeof ElementBase).get(attribute);
    if (name) (this as Record<string, unknown>)[name] = value;
  }

  /** The shadow root's content: what lit-html renders. */
  protected render(): unknown {
    return undefined;
  }

  /** Before rendering, with what changed: a property set here joins this update. */
  protected willUpdate(_changed: PropertyValues): void {}

  /** After rendering, with what changed. */
  protected updated(_changed: PropertyValues): void {}

  private async _enqueue(): Promise<boolean> {
    // The update before, or (the first time) the first connection. One that threw has been
    // reported (its updateComplete rejected); the next update still runs, as in Lit.
    await this._done.catch(() => false);
    for (const [name, value] of this._early) (this as Record<string, unknown>)[name] = value;
    this._early.clear();
    const changed = this._changed;
    try {
      this.willUpdate(changed);
      for (const c of this._controllers) c.hostUpdate?.();
      const template = this.render();
      this._changed = new Map();
      this._pending = false;
      render(template, this.renderRoot, { host: this });
    } catch (e) {
      this._changed = new Map();
      this._pending = false;
      throw e;
    }
    for (const c of this._controllers) c.hostUpdated?.();
    this.hasUpdated = true;
    this.updated(changed);
    return !this._pending;
  }
}
