/**
 * What a browser says when a payment page's Content-Security-Policy blocked (or, report-only,
 * would have blocked) something, read from either format browsers send, reduced to what an
 * operator needs and nothing a shopper typed: the directive, the blocked origin (or `inline`,
 * `eval`, ...), and the page's origin and path. Query strings, fragments, script samples and the
 * policy text are dropped (a sample can hold what a shopper typed; a query, an order id). Pure.
 *
 *   application/csp-report    `report-uri`: { "csp-report": { "effective-directive", "blocked-uri", ... } }
 *   application/reports+json  `report-to` (Reporting API): [{ "type": "csp-violation", "body": { ... } }]
 */

export interface CspViolation {
  /** The directive that blocked it: `script-src-elem`, `connect-src`, ...; `other` if unknown. */
  directive: string;
  /** `https://evil.example`; or `inline`, `eval`, `data`, `blob`, `wasm-eval`, `self`; `unknown`. */
  blockedOrigin: string;
  /** The page's origin and path. */
  document: string;
  disposition: 'enforce' | 'report';
}

export const CSP_REPORT = 'application/csp-report';
export const REPORTS_JSON = 'application/reports+json';

/** A report body that is not one of the two formats: the message names what is wrong. */
export class CspReportError extends Error {}

const KEYWORDS = new Set([
  'inline',
  'eval',
  'wasm-eval',
  'trusted-types-policy',
  'trusted-types-sink',
  'self',
]);

/** `https://a.example:8443` of a URL, or a scheme keyword (`data`, `blob`), or a CSP keyword. */
export function originOf(value: unknown): string {
  if (typeof value !== 'string' || value === '') return 'unknown';
  if (KEYWORDS.has(value)) return value;
  try {
    const url = new URL(value);
    return url.origin === 'null' ? url.protocol.slice(0, -1) : url.origin;
  } catch {
    return 'unknown';
  }
}

/** Origin and path of the page (its first 200 characters); `unknown` when it is not a URL. */
function pageOf(value: unknown): string {
  if (typeof value !== 'string') return 'unknown';
  try {
    const url = new URL(value);
    return url.origin === 'null' ? 'unknown' : `${url.origin}${url.pathname}`.slice(0, 200);
  } catch {
    return 'unknown';
  }
}

/**
 * The fetch and document directives CSP Level 3 defines: a metric label takes only these, so a
 * stranger's made-up names cannot grow the label set.
 */
const DIRECTIVES = new Set([
  'default-src',
  'script-src',
  'script-src-elem',
  'script-src-attr',
  'style-src',
  'style-src-elem',
  'style-src-attr',
  'img-src',
  'font-src',
  'connect-src',
  'media-src',
  'object-src',
  'frame-src',
  'child-src',
  'worker-src',
  'manifest-src',
  'prefetch-src',
  'fenced-frame-src',
  'base-uri',
  'form-action',
  'frame-ancestors',
  'navigate-to',
  'sandbox',
  'trusted-types',
  'require-trusted-types-for',
  'webrtc',
  'upgrade-insecure-requests',
]);

/** The directive (the first word of an older browser's `violated-directive`); else `other`. */
function directiveOf(value: unknown): string {
  const name = typeof value === 'string' ? value.trim().split(/\s+/)[0] : undefined;
  return name && DIRECTIVES.has(name) ? name : 'other';
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads a report body (already parsed JSON) of `type`; throws CspReportError when unusable. */
export function parseCspReports(type: string, body: unknown): CspViolation[] {
  if (type === CSP_REPORT) {
    const report = isObject(body) ? body['csp-report'] : undefined;
    if (!isObject(report)) throw new CspReportError('body: must be { "csp-report": { ... } }');
    return [
      {
        directive: directiveOf(report['effective-directive'] ?? report['violated-directive']),
        blockedOrigin: originOf(report['blocked-uri']),
        document: pageOf(report['document-uri']),
        disposition: report.disposition === 'report' ? 'report' : 'enforce',
      },
    ];
  }
  if (!Array.isArray(body)) throw new CspReportError('body: must be an array of reports');
  return body.flatMap((report, i) => {
    if (!isObject(report)) throw new CspReportError(`body[${i}]: must be a report object`);
    // The Reporting API batches other kinds (deprecation, intervention, ...) to one endpoint.
    if (report.type !== 'csp-violation') return [];
    const b = report.body;
    if (!isObject(b)) throw new CspReportError(`body[${i}].body: must be an object`);
    return [
      {
        directive: directiveOf(b.effectiveDirective),
        blockedOrigin: originOf(b.blockedURL),
        document: pageOf(b.documentURL ?? report.url),
        disposition: b.disposition === 'report' ? 'report' : 'enforce',
      },
    ];
  });
}
