/**
 * `npx pay-checkout watch-page <url> [--baseline <file>] [--update] [--webhook]`: the weekly
 * change and tamper check of a payment page (PCI DSS 11.6.1), for cron or CI.
 *
 *   no --baseline        prints the page's inventory (JSON)
 *   baseline not there   records it, exit 0
 *   baseline there       compares: exit 0 when nothing changed; otherwise prints each change and
 *                        exits 1 (`--update` then records the page as the new baseline: a change
 *                        someone approved); `--webhook` also posts `security.page-changed` to
 *                        WEBHOOK_URL, signed with WEBHOOK_SECRET as the backend's events are
 *   exit 2               the page could not be read, or the command line is wrong
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { SIGNATURE_HEADER, signWebhook } from '../../checkout/webhooks/webhook-signature.js';
import { readEnvironment } from '../../config.js';
import type { ToolResult } from '../integrity.js';
import { formatChange, type PageChange, pageChanges } from './diff.js';
import type { PageInventory } from './inventory.js';
import { FETCH_TIMEOUT_MS, pageSnapshot } from './snapshot.js';

const USAGE = 'Usage: pay-checkout watch-page <url> [--baseline <file>] [--update] [--webhook]';

export interface Baseline {
  recordedAt: string;
  page: PageInventory;
}

export interface WatchDeps {
  fetch: typeof fetch;
  env: Record<string, string | undefined>;
}

async function notify(deps: WatchDeps, url: string, changes: PageChange[]): Promise<string> {
  const { WEBHOOK_URL: hook, WEBHOOK_SECRET: secret } = deps.env;
  if (!hook || !secret) return 'not sent: --webhook needs WEBHOOK_URL and WEBHOOK_SECRET';
  const id = randomUUID();
  const body = JSON.stringify({
    id,
    type: 'security.page-changed',
    createdAt: new Date().toISOString(),
    data: { url, changes },
  });
  try {
    const res = await deps.fetch(hook, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        [SIGNATURE_HEADER]: signWebhook(secret, body, Math.floor(Date.now() / 1000)),
        'Pay-Checkout-Event-Id': id,
      },
      body,
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      redirect: 'error',
    });
    await res.body?.cancel().catch(() => {});
    return res.ok ? `sent security.page-changed ${id}` : `not sent: HTTP ${res.status}`;
  } catch (error) {
    return `not sent: ${error instanceof Error ? error.message : error}`;
  }
}

export async function watchPage(
  args: string[],
  deps: WatchDeps = { fetch, env: readEnvironment() },
): Promise<ToolResult> {
  let parsed: ReturnType<typeof parse>;
  const parse = () =>
    parseArgs({
      args,
      allowPositionals: true,
      options: {
        baseline: { type: 'string' },
        update: { type: 'boolean' },
        webhook: { type: 'boolean' },
      },
    });
  try {
    parsed = parse();
  } catch (error) {
    return { code: 2, out: `${(error as Error).message}\n${USAGE}` };
  }
  const { values, positionals } = parsed;
  const url = positionals[0];
  if (positionals.length !== 1 || !url || !/^https?:\/\//.test(url))
    return { code: 2, out: `watch-page takes one http(s) URL\n${USAGE}` };
  let page: PageInventory;
  try {
    page = await pageSnapshot(url, deps.fetch);
  } catch (error) {
    return {
      code: 2,
      out: `Could not read ${url}: ${error instanceof Error ? error.message : error}`,
    };
  }
  const file = values.baseline;
  if (!file) return { code: 0, out: JSON.stringify(page, null, 2) };
  const record = () =>
    writeFileSync(
      file,
      `${JSON.stringify({ recordedAt: new Date().toISOString(), page } satisfies Baseline, null, 2)}\n`,
    );
  if (!existsSync(file)) {
    record();
    return {
      code: 0,
      out: `Baseline recorded in ${file}: ${page.scripts.length} scripts, ${Object.keys(page.headers).length} headers.`,
    };
  }
  let baseline: Baseline;
  try {
    baseline = JSON.parse(readFileSync(file, 'utf8'));
    if (!Array.isArray(baseline.page?.scripts)) throw new Error('no page.scripts');
  } catch (error) {
    return { code: 2, out: `${file} is not a watch-page baseline (${(error as Error).message})` };
  }
  const changes = pageChanges(baseline.page, page);
  if (changes.length === 0)
    return { code: 0, out: `No change to ${url} since ${baseline.recordedAt}.` };
  const lines = [`${url} changed since ${baseline.recordedAt}:`, ...changes.map(formatChange)];
  if (values.webhook) lines.push(`Webhook: ${await notify(deps, url, changes)}`);
  if (values.update) {
    record();
    lines.push(`Recorded as the new baseline in ${file}.`);
    return { code: 0, out: lines.join('\n') };
  }
  return { code: 1, out: lines.join('\n') };
}
