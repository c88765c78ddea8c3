/**
 * `POST /v1/csp-reports`: where a merchant's payment page sends its Content-Security-Policy
 * violations (`report-uri` and `report-to`; docs/security.md gives the header), so that an
 * injected or changed script on the page is seen (PCI DSS 11.6.1). Browsers send these without
 * any key, so the route takes none: each IP is rate limited, the body is capped at 16 KB, and a
 * body that is not a report gets a 4xx naming what is wrong.
 *
 * Each violation becomes a warn log line (directive, blocked origin, page; nothing a shopper
 * typed: security/csp-violations.ts), a count in `/metrics`
 * (`pay_checkout_csp_reports_total{directive,blocked_origin}`), and, with a webhook configured,
 * a `security.csp-violation` event, at most one per directive, origin and page every 10 minutes
 * per instance (a broken policy on a busy page would otherwise send one per shopper).
 */
import express, { Router } from 'express';
import { Counter } from 'prom-client';
import type { Context } from '../context.js';
import { badRequest, HttpError } from '../errors.js';
import {
  CSP_REPORT,
  CspReportError,
  type CspViolation,
  parseCspReports,
  REPORTS_JSON,
} from '../security/csp-violations.js';
import { enqueueEvent } from '../webhooks/webhooks.js';
import { perIpLimit } from './throttle.js';

export const CSP_REPORTS_PATH = '/v1/csp-reports';

export interface CspReportOptions {
  /** Report requests per minute per IP. */
  perIp: number;
  /** At most one webhook event per directive, origin and page in this many ms. */
  alertEveryMs: number;
}

export const DEFAULT_CSP_REPORT_OPTIONS: CspReportOptions = { perIp: 120, alertEveryMs: 600_000 };

/** Distinct blocked origins a counter keeps as labels; later ones count as `other`. */
const MAX_ORIGINS = 100;

export function cspReportsRouter(
  ctx: Context,
  options: CspReportOptions = DEFAULT_CSP_REPORT_OPTIONS,
): Router {
  const counter = new Counter({
    name: 'pay_checkout_csp_reports_total',
    help: "CSP violations reported by payment pages, by directive and blocked origin ('inline', 'eval', or the origin).",
    labelNames: ['directive', 'blocked_origin'] as const,
    registers: [ctx.metrics.register],
  });
  const origins = new Set<string>();
  const alerted = new Map<string, number>();

  const alert = async (v: CspViolation) => {
    if (!ctx.config.webhook) return;
    const key = `${v.directive} ${v.blockedOrigin} ${v.document}`;
    const now = Date.now();
    if (now - (alerted.get(key) ?? -Infinity) < options.alertEveryMs) return;
    if (alerted.size >= 1000) alerted.clear();
    alerted.set(key, now);
    await enqueueEvent(ctx, 'security.csp-violation', { violation: { ...v } }, null);
  };

  const router = Router();
  // The Reporting API sends `application/reports+json` with CORS: a preflight first.
  router.options('/', (_req, res) => {
    res
      .set('Access-Control-Allow-Origin', '*')
      .set('Access-Control-Allow-Methods', 'POST')
      .set('Access-Control-Allow-Headers', 'Content-Type')
      .set('Access-Control-Max-Age', '86400')
      .status(204)
      .end();
  });
  router.post(
    '/',
    perIpLimit({ limit: options.perIp, windowMs: 60_000 }),
    express.json({ limit: '16kb', type: [CSP_REPORT, REPORTS_JSON] }),
    async (req, res) => {
      res.set('Access-Control-Allow-Origin', '*');
      const type = req.is([CSP_REPORT, REPORTS_JSON]);
      if (!type)
        throw new HttpError(
          415,
          'validation',
          `Content-Type must be ${CSP_REPORT} or ${REPORTS_JSON}`,
          'content-type',
        );
      let violations: CspViolation[];
      try {
        violations = parseCspReports(type, req.body);
      } catch (error) {
        if (error instanceof CspReportError) throw badRequest('body', error.message);
        throw error;
      }
      for (const v of violations) {
        if (origins.size < MAX_ORIGINS) origins.add(v.blockedOrigin);
        const origin = origins.has(v.blockedOrigin) ? v.blockedOrigin : 'other';
        counter.inc({ directive: v.directive, blocked_origin: origin });
        ctx.logger.warn({ csp: v }, `csp violation: ${v.directive} blocked ${v.blockedOrigin}`);
        await alert(v);
      }
      res.status(204).end();
    },
  );
  return router;
}
