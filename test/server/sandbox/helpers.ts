/**
 * Test harness: a sandbox on 127.0.0.1 (port 0, a schema of its own on the test process's
 * in-memory PGlite: test/support/memory-schemas.ts), the typed gateway client
 * configured with the dev merchant, a raw form poster for refusals, and small browser stand-ins
 * that read the fake ACS pages' forms.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGatewayClient, type GatewayClient } from '../../../server/src/gateway/index.js';
import {
  createSandboxApp,
  type SandboxApp,
  type SandboxOptions,
} from '../../../server/src/sandbox/index.js';
import {
  type ControlOperation,
  type ControlValues,
  computeControl,
} from '../../../server/src/signing/index.js';
import { withSandboxSchema } from '../../support/memory-schemas.js';

export const PAY_JSON = 'application/vnd.pay+json';

export interface Harness {
  sandbox: SandboxApp;
  origin: string;
  base: string;
  client: GatewayClient;
  endpointId: string;
  login: string;
  controlKey: string;
  privateKeyPem: string;
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Harness> {
  const sandbox = await createSandboxApp({
    processingDelayMs: 15,
    ...(await withSandboxSchema(options)),
  });
  const server: Server = await new Promise((resolve) => {
    const s = sandbox.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const base = `${origin}/paynet`;
  const creds = sandbox.devCredentials;
  assert.ok(creds, 'the harness uses the dev merchant');
  const privateKeyPem = readFileSync(creds.privateKeyFile, 'utf8');
  const client = createGatewayClient({
    gatewayUrl: base,
    endpointId: creds.endpointId,
    login: creds.login,
    controlKey: creds.controlKey,
    privateKeyPem,
    retries: 0,
    timeoutMs: 5000,
  });
  return {
    sandbox,
    origin,
    base,
    client,
    endpointId: creds.endpointId,
    login: creds.login,
    controlKey: creds.controlKey,
    privateKeyPem,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await sandbox.close();
    },
  };
}

export interface RawResponse {
  status: number;
  contentType: string;
  body: Record<string, string>;
}

/** POSTs a form as-is (no signing): for refusals and hand-built requests. */
export async function postForm(
  url: string,
  fields: Record<string, string> | [string, string][],
  headers: Record<string, string> = {},
  method = 'POST',
): Promise<RawResponse> {
  const response = await fetch(url, {
    method,
    headers: {
      Accept: PAY_JSON,
      'Content-Type': 'application/x-www-form-urlencoded',
      ...headers,
    },
    ...(method === 'GET' || method === 'HEAD'
      ? {}
      : { body: new URLSearchParams(fields).toString() }),
  });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    body: text ? (JSON.parse(text) as Record<string, string>) : {},
  };
}

export function control(h: Harness, op: ControlOperation, values: ControlValues): string {
  return computeControl(op, { endpointId: h.endpointId, login: h.login, ...values }, h.controlKey);
}

let counter = 0;
export function orderId(prefix = 'ord'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now()}-${counter}`;
}

export const REDIRECT = 'https://shop.example/return/abc123';

export function saleRequest(
  pan: string,
  clientOrderId = orderId(),
  extra: Record<string, string> = {},
) {
  return {
    client_orderid: clientOrderId,
    order_desc: 'Test order',
    amount: '10.42',
    currency: 'EUR',
    email: 'shopper@example.com',
    credit_card_number: pan,
    card_printed_name: 'Ada Lovelace',
    expire_month: '12',
    expire_year: '2030',
    cvv2: '123',
    ipaddress: '203.0.113.7',
    redirect_url: REDIRECT,
    address1: '1 Analytical Row',
    city: 'London',
    zip_code: 'N1 1AA',
    country: 'GB',
    phone: '+442071234567',
    ...extra,
  };
}

export const FINAL = new Set(['approved', 'declined', 'error', 'filtered']);

/** Polls status until `until` holds (default: a final status). */
export async function waitForStatus(
  h: Harness,
  clientOrderId: string,
  orderid: string,
  until: (r: Awaited<ReturnType<GatewayClient['status']>>) => boolean = (r) => FINAL.has(r.status),
  timeoutMs = 4000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await h.client.status({ client_orderid: clientOrderId, orderid });
    if (until(r)) return r;
    if (Date.now() > deadline)
      assert.fail(`order ${orderid} stuck in ${r.status}: ${JSON.stringify(r.raw)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export const BROWSER = {
  browserAcceptHeader: 'text/html,application/xhtml+xml',
  browserIP: '203.0.113.7',
  browserJavaEnabled: 'false',
  browserJavascriptEnabled: 'true',
  browserLanguage: 'en-GB',
  browserColorDepth: '24',
  browserScreenHeight: '1080',
  browserScreenWidth: '1920',
  browserTZ: '-60',
  browserUserAgent: 'Mozilla/5.0 (sandbox test)',
  challengeWindowSize: '02',
} as const;

export interface HtmlForm {
  action: string;
  fields: Record<string, string>;
}

/** The first form of a page: its action and hidden/value inputs (a browser stand-in). */
export function readForm(html: string): HtmlForm {
  const form = /<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(html);
  assert.ok(form, `no form in page: ${html.slice(0, 300)}`);
  const fields: Record<string, string> = {};
  for (const input of form[2]!.matchAll(/<input[^>]*>/g)) {
    const name = /name="([^"]*)"/.exec(input[0])?.[1];
    const value = /value="([^"]*)"/.exec(input[0])?.[1] ?? '';
    if (name) fields[decodeEntities(name)] = decodeEntities(value);
  }
  return { action: decodeEntities(form[1]!), fields };
}

function decodeEntities(value: string): string {
  return value
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

/** A browser POSTing a form to a page; returns status, headers and HTML. */
export async function browserPost(url: string, fields: Record<string, string>) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  return { status: response.status, headers: response.headers, html: await response.text() };
}

export function decodeB64Json(value: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Record<string, unknown>;
}
