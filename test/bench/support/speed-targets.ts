/**
 * The speed targets (test/bench/RESULTS.md#targets), read from this run's backend and browser
 * results, beside the figures measured before the work (RESULTS.md of 2026-11-21 and a browser
 * run of the same time).
 */
import type { BackendResult } from '../backend.bench.js';
import type { BrowserResult } from '../browser.bench.js';
import { fmt, ratio } from './markdown.js';
import type { TargetRow } from './targets.js';

export const CLICK_TO_SUCCESS_TARGET_MS = 300;
export const READ_RATIO_TARGET = 0.5;
export const PAY_P50_TARGET_MS = 150;

export function speedTargets(
  backend: BackendResult,
  browser: BrowserResult | undefined,
): TargetRow[] {
  const pglite = backend.engines.find((e) => e.engine === 'pglite');
  const readRatio = pglite ? pglite.readSession.rps / pglite.bare.rps : undefined;
  return [
    {
      figure: `click → \`pay-success\`, approved card, Chromium, median of ${browser?.payments.length ?? 20} (§4)`,
      target: `≤ ${CLICK_TO_SUCCESS_TARGET_MS} ms`,
      replaced: '825 ms',
      measured: browser
        ? `${fmt(browser.medianMs)} ms (p90 ${fmt(browser.p90Ms)} ms)`
        : 'not measured',
      met: browser ? browser.medianMs <= CLICK_TO_SUCCESS_TARGET_MS : undefined,
    },
    {
      figure: 'session read (`GET /widget/session`) ÷ bare Express handler, PGlite (§3)',
      target: `≥ ${READ_RATIO_TARGET.toFixed(1)}×`,
      replaced: '0.15×',
      measured: pglite ? ratio(pglite.readSession.rps, pglite.bare.rps) : 'not measured',
      met: readRatio === undefined ? undefined : readRatio >= READ_RATIO_TARGET,
    },
    {
      figure: 'pay cycle p50, 8 concurrent shoppers, PGlite (§3)',
      target: `≤ ${PAY_P50_TARGET_MS} ms`,
      replaced: '328 ms',
      measured: pglite ? `${fmt(pglite.payCycle.p50Ms)} ms` : 'not measured',
      met: pglite ? pglite.payCycle.p50Ms <= PAY_P50_TARGET_MS : undefined,
    },
  ];
}
