/**
 * ElementBase (widget/src/element-base.ts): the part of Lit's update cycle `<pay-checkout>` uses,
 * with Lit's meaning. Each test defines an element of its own (a tag per test) and records what
 * the cycle did, in order.
 */
import { expect } from '@open-wc/testing';
import { html } from 'lit-html';
import {
  ElementBase,
  type PropertyOptions,
  type PropertyValues,
  type ReactiveController,
} from '../../widget/src/element-base.js';

let tags = 0;

/** A fresh element class: `label` (attribute `label`), `windowSize` (`window-size`), `data` (none), `_count` (state). */
function define(log: string[]) {
  class Probe extends ElementBase {
    static override properties: Record<string, PropertyOptions> = {
      label: {},
      windowSize: { attribute: 'window-size' },
      data: { attribute: false },
      _count: { state: true },
    };
    static override styles = ':host { display: block; color: rgb(1, 2, 3); }';
    label = 'none';
    declare windowSize: string | undefined;
    declare data: unknown;
    _count = 0;
    setInWillUpdate: (() => void) | undefined;
    setInUpdated: (() => void) | undefined;

    protected override render() {
      log.push(`render ${this.label} ${this._count}`);
      return html`<p @click=${this._onClick}>${this.label}:${this._count}</p>`;
    }
    protected override willUpdate(changed: PropertyValues) {
      log.push(`willUpdate ${[...changed.keys()].join(',')}`);
      this.setInWillUpdate?.();
      this.setInWillUpdate = undefined;
    }
    protected override updated(changed: PropertyValues) {
      log.push(`updated ${[...changed.entries()].map(([k, v]) => `${String(k)}=${v}`).join(',')}`);
      this.setInUpdated?.();
      this.setInUpdated = undefined;
    }
    private _onClick() {
      // `this` is the element: lit-html binds listeners to the host it is given.
      this._count++;
    }
  }
  const tag = `probe-base-${++tags}`;
  customElements.define(tag, Probe);
  return tag;
}

describe('ElementBase', () => {
  afterEach(() => {
    for (const el of document.querySelectorAll('[data-probe]')) el.remove();
  });

  function make(tag: string, attributes = '') {
    const host = document.createElement('div');
    host.dataset.probe = '';
    host.innerHTML = `<${tag} ${attributes}></${tag}>`;
    return { host, el: host.firstElementChild as ElementBase & Record<string, unknown> };
  }

  it('renders once connected, in one update for what was set before, with Lit order', async () => {
    const log: string[] = [];
    const { host, el } = make(define(log), 'label="a"');
    el.data = 1;
    await Promise.resolve();
    await Promise.resolve();
    expect(log, 'no update before the first connection').to.deep.equal([]);
    document.body.append(host);
    expect(await el.updateComplete).to.equal(true);
    expect(log).to.deep.equal([
      'willUpdate label,_count,data',
      'render a 0',
      'updated label=undefined,_count=undefined,data=undefined',
    ]);
    expect(el.hasUpdated).to.equal(true);
    expect(el.renderRoot.querySelector('p')?.textContent).to.equal('a:0');
  });

  it('maps attributes to properties: lower case, a named one, none for attribute: false or state', async () => {
    const log: string[] = [];
    const tag = define(log);
    const Probe = customElements.get(tag) as unknown as { observedAttributes: string[] };
    expect(Probe.observedAttributes).to.deep.equal(['label', 'window-size']);
    const { host, el } = make(tag, 'window-size="03" data="x"');
    document.body.append(host);
    await el.updateComplete;
    expect(el.windowSize).to.equal('03');
    expect(el.data).to.equal(undefined);
    el.setAttribute('label', 'b');
    await el.updateComplete;
    expect(el.label).to.equal('b');
    el.removeAttribute('label');
    await el.updateComplete;
    expect(el.label, 'a removed attribute is null, as with Lit').to.equal(null);
  });

  it('batches the properties set in one task into one update, and skips a value set again', async () => {
    const log: string[] = [];
    const { host, el } = make(define(log));
    document.body.append(host);
    await el.updateComplete;
    log.length = 0;
    el.label = 'x';
    el.label = 'y';
    el._count = 2;
    expect(await el.updateComplete).to.equal(true);
    expect(log).to.deep.equal([
      'willUpdate label,_count',
      'render y 2',
      'updated label=none,_count=0',
    ]);
    log.length = 0;
    el.label = 'y';
    await el.updateComplete;
    expect(log, 'the same value asks for no update').to.deep.equal([]);
  });

  it('takes a property set in willUpdate into the update under way; one set in updated asks for another', async () => {
    const log: string[] = [];
    const { host, el } = make(define(log));
    document.body.append(host);
    await el.updateComplete;
    log.length = 0;
    el.setInWillUpdate = () => {
      el.label = 'from willUpdate';
    };
    el._count = 1;
    await el.updateComplete;
    expect(log).to.deep.equal([
      'willUpdate _count',
      'render from willUpdate 1',
      'updated _count=0,label=none',
    ]);
    log.length = 0;
    el.setInUpdated = () => {
      el._count = 5;
    };
    el.label = 'z';
    expect(await el.updateComplete, 'another update was asked meanwhile').to.equal(false);
    expect(await el.updateComplete).to.equal(true);
    expect(log).to.deep.equal([
      'willUpdate label',
      'render z 1',
      'updated label=from willUpdate',
      'willUpdate _count',
      'render z 5',
      'updated _count=1',
    ]);
  });

  it('keeps what a page set on the element before it was defined, over the defaults', async () => {
    const log: string[] = [];
    const tag = `probe-base-${tags + 1}`;
    const early = document.createElement(tag) as HTMLElement & Record<string, unknown>;
    early.label = 'set early';
    early.data = { a: 1 };
    const host = document.createElement('div');
    host.dataset.probe = '';
    host.append(early);
    document.body.append(host);
    expect(define(log)).to.equal(tag);
    const el = early as ElementBase & Record<string, unknown>;
    await el.updateComplete;
    expect(el.label).to.equal('set early');
    expect(el.data).to.deep.equal({ a: 1 });
    expect(Object.hasOwn(el, 'label'), 'the accessor, not an own property').to.equal(false);
    expect(el.renderRoot.querySelector('p')?.textContent).to.equal('set early:0');
  });

  it('calls controllers: connected (also when added later), update before render, updated, disconnected', async () => {
    const log: string[] = [];
    const { host, el } = make(define(log));
    const controller = (name: string): ReactiveController => ({
      hostConnected: () => log.push(`${name} connected`),
      hostDisconnected: () => log.push(`${name} disconnected`),
      hostUpdate: () => log.push(`${name} update`),
      hostUpdated: () => log.push(`${name} updated`),
    });
    el.addController(controller('a'));
    document.body.append(host);
    el.addController(controller('b'));
    await el.updateComplete;
    host.remove();
    expect(log).to.deep.equal([
      'a connected',
      'b connected',
      'willUpdate label,_count',
      'a update',
      'b update',
      'render none 0',
      'a updated',
      'b updated',
      'updated label=undefined,_count=undefined',
      'a disconnected',
      'b disconnected',
    ]);
  });

  it('rejects updateComplete when an update throws, and still runs the next one', async () => {
    const log: string[] = [];
    const { host, el } = make(define(log));
    document.body.append(host);
    await el.updateComplete;
    el.setInWillUpdate = () => {
      el.setInWillUpdate = undefined;
      throw new Error('broken');
    };
    el.label = 'first';
    const failed = await el.updateComplete.then(
      () => 'resolved',
      (e: Error) => e.message,
    );
    expect(failed).to.equal('broken');
    el.label = 'second';
    expect(await el.updateComplete).to.equal(true);
    expect(el.renderRoot.querySelector('p')?.textContent).to.equal('second:0');
  });

  it('binds template listeners to the element', async () => {
    const { host, el } = make(define([]));
    document.body.append(host);
    await el.updateComplete;
    el.renderRoot.querySelector('p')?.click();
    await el.updateComplete;
    expect(el.renderRoot.querySelector('p')?.textContent).to.equal('none:1');
  });

  it('adopts one style sheet for every element of the page', async () => {
    const tag = define([]);
    const a = make(tag);
    const b = make(tag);
    document.body.append(a.host, b.host);
    await a.el.updateComplete;
    await b.el.updateComplete;
    const sheets = [a.el.renderRoot.adoptedStyleSheets, b.el.renderRoot.adoptedStyleSheets];
    expect(sheets[0]).to.have.length(1);
    expect(sheets[0]?.[0]).to.equal(sheets[1]?.[0]);
    const p = a.el.renderRoot.querySelector('p') as HTMLElement;
    expect(getComputedStyle(p).color).to.equal('rgb(1, 2, 3)');
  });

  it('writes a <style> with window.litNonce where a browser cannot adopt style sheets', async () => {
    const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, 'adoptedStyleSheets');
    expect(descriptor, 'Chromium has the property to take away').to.not.equal(undefined);
    delete (Document.prototype as Partial<Document>).adoptedStyleSheets;
    window.litNonce = 'n0nce';
    try {
      const { host, el } = make(define([]));
      document.body.append(host);
      await el.updateComplete;
      const style = el.renderRoot.querySelector('style') as HTMLStyleElement;
      expect(style.nonce).to.equal('n0nce');
      expect(style.textContent).to.contain('rgb(1, 2, 3)');
      expect(getComputedStyle(el.renderRoot.querySelector('p') as HTMLElement).color).to.equal(
        'rgb(1, 2, 3)',
      );
    } finally {
      Object.defineProperty(Document.prototype, 'adoptedStyleSheets', descriptor!);
      delete window.litNonce;
    }
  });
});
