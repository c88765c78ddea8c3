/**
 * Every shopper can pay, in their browser: the shopper matrix (journeys.ts) in three engines, each
 * set up as shoppers have it. Firefox ESR with Total Cookie Protection and site isolation
 * (drivers/firefox.ts), WebKitGTK with ITP (drivers/webkit.ts), Chromium with the back/forward
 * cache and storage partitioning on (drivers/chromium.ts). The merchant page is on a site of its
 * own (shop.ts).
 *
 * One stack and one merchant page for the file; one browser per engine, a fresh tab (its own
 * cookies and storage) per journey. The engines run side by side, each its journeys one at a
 * time: a journey is mostly waiting on bank pages and the gateway's delays, and one tab at a time
 * keeps every engine's tab in the foreground (background tabs get their timers throttled).
 *
 * An engine that cannot be found or started fails each of its tests with the reason.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { type TestCard, testCards } from '../support/checkout-page.js';
import { type Stack, startStack } from '../support/stack.js';
import { engineBinaries } from './drivers/binaries.js';
import { launchChromium } from './drivers/chromium.js';
import { launchFirefox } from './drivers/firefox.js';
import type { Engine, Tab } from './drivers/tab.js';
import { launchWebKit } from './drivers/webkit.js';
import { JOURNEYS, type Journey, looks } from './journeys.js';
import { STATE } from './page-scripts.js';
import { PINNED_JOURNEYS } from './pinned.js';
import { type EngineShop, startEngineShop } from './shop.js';

/**
 * `MATRIX_ENGINES=firefox,webkit` runs only those, when working on one engine; `npm test` sets
 * nothing and runs all three.
 */
const ENGINES = [
  { key: 'firefox', name: 'Firefox ESR', launch: launchFirefox },
  // No forced-colors journey: WebKit has no such mode (Safari does not implement `forced-colors`),
  // so there is nothing to switch on, and a journey that could only be skipped is not written.
  { key: 'webkit', name: 'WebKitGTK', launch: launchWebKit, schemes: ['light', 'dark'] as const },
  { key: 'chromium', name: 'Chromium', launch: launchChromium },
].filter((e) => !process.env.MATRIX_ENGINES || process.env.MATRIX_ENGINES.includes(e.key));

const FAILURE_DIR = new URL('../../../test-output/failures/', import.meta.url);

let stack: Stack | undefined;
let shop: EngineShop | undefined;
let cards = new Map<string, TestCard>();

before(async () => {
  // The shop first: the stack must allow its origin.
  shop = await startEngineShop();
  stack = await startStack({ extraOrigins: [shop.origin] });
  await shop.useStack(stack);
  cards = await testCards(stack.sandboxUrl);
});

after(async () => {
  await stack?.stop();
  await shop?.stop();
});

/** What a failed journey leaves in test-output/failures/: the tab's screenshot and state. */
async function saveFailure(name: string, tab: Tab, error: unknown): Promise<void> {
  await mkdir(FAILURE_DIR, { recursive: true });
  const base = `engines-${name}`.replace(/[^\w.-]+/g, '-').slice(0, 120);
  const lines = [`test: ${name}`, `error: ${String(error)}`];
  try {
    lines.push(`url: ${await tab.url()}`, `element: ${JSON.stringify(await tab.run(STATE))}`);
    lines.push(`events: ${JSON.stringify(await tab.run('() => window.payEvents ?? null'))}`);
    await writeFile(new URL(`${base}.png`, FAILURE_DIR), await tab.screenshot());
  } catch (captureError) {
    lines.push(`capture failed: ${String(captureError)}`);
  }
  await writeFile(new URL(`${base}.txt`, FAILURE_DIR), `${lines.join('\n')}\n`);
}

describe('every shopper can pay, in their browser', { concurrency: ENGINES.length }, () => {
  for (const spec of ENGINES) {
    describe(spec.name, { concurrency: 1 }, () => {
      let engine: Engine | undefined;
      // Kept, not thrown: each of the engine's tests then fails with the reason in its own words.
      let launchError: unknown;
      before(async () => {
        engine = await spec.launch(engineBinaries()).catch((error) => {
          launchError = error;
          return undefined;
        });
      });
      after(async () => {
        await engine?.close();
      });

      const schemes = ('schemes' in spec && spec.schemes) || (['light', 'dark', 'forced'] as const);
      const journeys: Journey[] = [
        ...JOURNEYS,
        ...PINNED_JOURNEYS,
        ...schemes.map((scheme) => looks(scheme)),
      ];
      for (const journey of journeys) {
        test(journey.name, async (t) => {
          if (!engine) throw new Error(`${spec.name} did not start: ${String(launchError)}`);
          if (!shop || !stack) throw new Error('the stack did not start');
          if (journey === journeys[0]) t.diagnostic(`${engine.version}; ${engine.setup}`);
          const tab = await engine.newTab(journey.scheme);
          try {
            await journey.run({
              engine,
              tab,
              shop,
              stack,
              card: (scenario) => {
                const card = cards.get(scenario);
                if (!card) throw new Error(`the sandbox has no ${scenario} card`);
                return card;
              },
              note: (message) => t.diagnostic(message),
            });
          } catch (error) {
            await saveFailure(`${spec.name} ${journey.name}`, tab, error);
            throw error;
          } finally {
            // A tab that will not close is worth a line, not the journey's own error.
            await tab.close().catch((error) => t.diagnostic(`closing the tab: ${String(error)}`));
            for (const note of engine.takeNotes?.() ?? []) t.diagnostic(note);
          }
        });
      }
    });
  }
});
