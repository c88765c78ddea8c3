/**
 * The merchant page of the engine matrix, on a site of its own: 127.0.0.2, while the backend is on
 * `localhost` and the sandbox gateway and its bank pages on 127.0.0.1. Three sites, so frames,
 * storage and cookies are cross-site as on the internet (support/shops.ts's pages share a site
 * with the backend or with the bank). The page is what docs/widget.md asks of a merchant and no
 * more, plus a record a test can read in any engine (WebKitWebDriver gives no console): every
 * `pay-*` event in `window.payEvents`, and every `pageshow` (persisted or not) in
 * `window.pageShows`, which tells a page restored from the back/forward cache from one loaded
 * afresh. It follows the shopper's colour scheme with the system colours (`Canvas`, `CanvasText`),
 * as the element's status line and test badge take the page's colours (and axe, which cannot read
 * the browser's canvas, needs a background to measure contrast against).
 *
 * A second listener on 127.0.0.3 serves the storage probe: a frame on another site than the page.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import express from 'express';
import { widgetBundlePath } from '../../../server/src/widget-build.js';
import { PAY_EVENTS } from '../../../widget/src/events.js';
import { SHOPPER } from '../support/checkout-page.js';
import type { Stack } from '../support/stack.js';
import {
  changedCopies,
  cspViolationPage,
  manifestOf,
  type ScriptChoice,
  scriptTag,
} from './pinned-files.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const SHOP_HOST = '127.0.0.2';
const PROBE_HOST = '127.0.0.3';

export type ChallengeMode = 'auto' | 'iframe' | 'redirect';

export interface CheckoutOptions {
  challenge?: ChallengeMode;
  /** The element's `locale` attribute; the page itself stays English. */
  locale?: string;
  /** The session's `saveCard` (the merchant API's default: never). */
  saveCard?: 'ask' | 'always' | 'never';
  /** Card references the session offers (a returning shopper). */
  savedCards?: string[];
  /** The element pinned by version and integrity, or a changed copy (pinned-files.ts). */
  script?: ScriptChoice;
  /** `false`: a session of only amount, currency, orderId and description (no customer): the
   * element asks the shopper for contact and address. */
  customer?: false;
}

export interface EngineShop {
  origin: string;
  /** Another site than the shop's, for the storage probe's frame. */
  probeOrigin: string;
  /**
   * The stack the shop sells through, once it runs (it must allow the shop's origin, and it has
   * built the widget's CDN folder, which the shop then takes).
   */
  useStack(stack: Stack): Promise<void>;
  /** A checkout session from the merchant API, and the page that pays it. */
  checkout(options?: CheckoutOptions): Promise<{ orderId: string; url: string }>;
  stop(): Promise<void>;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function checkoutPage(
  backend: string,
  session: string,
  options: CheckoutOptions,
  widget: Map<string, Buffer>,
): string {
  const locale = options.locale ? ` locale="${esc(options.locale)}"` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Engine matrix shop</title>
<style>html { background: Canvas; color: CanvasText; }</style>
<script>
  window.payEvents = [];
  window.pageShows = [];
  for (const type of ${JSON.stringify(PAY_EVENTS)}) {
    document.addEventListener(type, (e) => window.payEvents.push({ type, detail: e.detail }));
  }
  addEventListener('pageshow', (e) => window.pageShows.push(e.persisted));
</script>
${options.script ? scriptTag(options.script, backend, manifestOf(widget)) : '<script type="module" src="/pay-checkout.js"></script>'}</head>
<body><main><h1>Checkout</h1>
<pay-checkout backend="${esc(backend)}" session="${esc(session)}" challenge="${esc(options.challenge ?? 'auto')}"${locale}></pay-checkout>
</main></body></html>`;
}

/**
 * The probe: the page frames the other site, which writes to its localStorage there and tells
 * the page what it could read back (`window.probe`).
 */
const PROBE_PAGE = (
  frameUrl: string,
) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Probe</title><script>addEventListener('message', (e) => { window.probe = e.data; });</script>
</head><body><main><h1>Probe</h1><iframe title="probe" src="${esc(frameUrl)}"></iframe></main></body></html>`;
const PROBE_FRAME = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Framed</title>
</head><body><script>
let said;
try { localStorage.setItem('probe', 'framed'); said = localStorage.getItem('probe'); }
catch (e) { said = 'refused: ' + e; }
parent.postMessage(said, '*');
</script></body></html>`;
const PROBE_READ = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Read</title>
</head><body></body></html>`;

/**
 * The widget's CDN folder (its file, and each language's beside it in locales/), read once into
 * memory: the folder is rebuilt whenever a widget source changes, by any test run on the machine,
 * and a page that asked for it mid-build got no element.
 */
async function snapshotWidget(): Promise<Map<string, Buffer>> {
  const dir = dirname(widgetBundlePath(ROOT));
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(js|json)$/.test(entry.name)) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(`/${path.slice(dir.length + 1)}`, await readFile(path));
  }
  assert.ok(files.has('/pay-checkout.js'), `no widget in ${dir}`);
  for (const [path, bytes] of changedCopies(files)) files.set(path, bytes);
  return files;
}

function listen(server: Server, host: string, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

export async function startEngineShop(): Promise<EngineShop> {
  let stack: Stack | undefined;
  let widget = new Map<string, Buffer>();
  const sessions = new Map<string, { token: string; options: CheckoutOptions }>();
  const app = express();
  // The widget's CDN folder as a CDN serves it: its file and its languages (locales/*.json) beside.
  app.get(/\.(js|json)$/, (req, res) => {
    const file = widget.get(req.path);
    if (!file) return void res.status(404).send('not found');
    res.type(req.path.endsWith('.js') ? 'text/javascript' : 'application/json').send(file);
  });
  // Also the session's returnUrl: after a redirect the same page picks the payment up.
  app.get('/checkout/:orderId', (req, res) => {
    const found = sessions.get(req.params.orderId);
    if (!found || !stack) return void res.status(404).send('no such checkout');
    res.type('html').send(checkoutPage(stack.shopUrl, found.token, found.options, widget));
  });
  app.get('/probe/page', (req, res) => {
    res.type('html').send(PROBE_PAGE(String(req.query.frame ?? '')));
  });
  app.get('/csp-violation/:id', (req, res) => {
    if (!stack) return void res.status(503).send('no stack');
    cspViolationPage(stack.shopUrl)(req, res);
  });
  app.get('/probe/frame', (_req, res) => void res.type('html').send(PROBE_FRAME));
  app.get('/probe/read', (_req, res) => void res.type('html').send(PROBE_READ));

  const shopServer = createServer(app);
  const port = await listen(shopServer, SHOP_HOST);
  const probeServer = createServer(app);
  const probePort = await listen(probeServer, PROBE_HOST);
  const origin = `http://${SHOP_HOST}:${port}`;

  return {
    origin,
    probeOrigin: `http://${PROBE_HOST}:${probePort}`,
    async useStack(s) {
      stack = s;
      widget = await snapshotWidget();
    },
    async checkout(options = {}) {
      assert.ok(stack, 'the stack is running');
      const orderId = `engines-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
      const url = `${origin}/checkout/${orderId}`;
      const created = await stack.merchantApi('POST', '/v1/checkout-sessions', {
        amount: '12.34',
        currency: 'EUR',
        orderId,
        description: 'Engine matrix',
        ...(options.customer === false
          ? {}
          : { intent: 'sale', customer: SHOPPER, returnUrl: url }),
        ...(options.saveCard ? { saveCard: options.saveCard } : {}),
        ...(options.savedCards ? { savedCards: options.savedCards } : {}),
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      sessions.set(orderId, { token: (created.body as { token: string }).token, options });
      return { orderId, url };
    },
    async stop() {
      await Promise.all(
        [shopServer, probeServer].map(
          (s) =>
            new Promise<void>((resolve) => {
              s.closeAllConnections();
              s.close(() => resolve());
            }),
        ),
      );
    },
  };
}
