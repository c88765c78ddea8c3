/**
 * 405 with `Allow` for a path the merchant API has and a method it does not take there, and the
 * `Allow` of an OPTIONS request, from the route table. A path with no parameter wins over one
 * whose parameter would match it (`/payouts/check` is not payout `check`: no payout may take that
 * id, schemas.ts), so the methods of one path never mix two routes.
 */
import type { RequestHandler } from 'express';
import { HttpError } from '../../errors.js';
import type { RouteSpec } from './route-spec.js';

interface PathMethods {
  pattern: RegExp;
  literal: boolean;
  methods: Set<string>;
}

/** `/orders/:orderId/capture` -> a pattern whose parameter matches one path segment. */
function patternOf(path: string): RegExp {
  const escaped = path
    .split('/')
    .map((segment) =>
      segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${escaped}$`);
}

/** The methods a path takes, HEAD with GET (Express answers it), or undefined if none. */
export function allowedMethods(
  specs: readonly RouteSpec[],
): (path: string) => string[] | undefined {
  const byPath = new Map<string, PathMethods>();
  for (const spec of specs) {
    const entry = byPath.get(spec.path) ?? {
      pattern: patternOf(spec.path),
      literal: !spec.path.includes(':'),
      methods: new Set<string>(),
    };
    entry.methods.add(spec.method.toUpperCase());
    if (spec.method === 'get') entry.methods.add('HEAD');
    byPath.set(spec.path, entry);
  }
  const entries = [...byPath.values()];
  return (path) => {
    const matching = entries.filter((entry) => entry.pattern.test(path));
    if (matching.length === 0) return undefined;
    const literal = matching.filter((entry) => entry.literal);
    const chosen = literal.length > 0 ? literal : matching;
    return [...new Set(chosen.flatMap((entry) => [...entry.methods]))].sort();
  };
}

/** Mounted before the routes: OPTIONS answers `Allow`; another method a path lacks is a 405. */
export function methodCheck(specs: readonly RouteSpec[]): RequestHandler {
  const allowed = allowedMethods(specs);
  return (req, res, next) => {
    const methods = allowed(req.path);
    if (!methods) return next();
    const allow = [...methods, 'OPTIONS'].join(', ');
    if (req.method === 'OPTIONS') {
      res.set('Allow', allow).status(204).end();
      return;
    }
    if (methods.includes(req.method)) return next();
    res.set('Allow', allow);
    throw new HttpError(
      405,
      'method-not-allowed',
      `${req.method} is not a method of this path; it takes ${allow}`,
    );
  };
}
