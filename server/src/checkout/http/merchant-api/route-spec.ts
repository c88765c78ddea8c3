/**
 * One description per merchant route: method, path, schemas and summary. `mount` registers the
 * handler behind validation by exactly these schemas, and openapi.ts publishes exactly these
 * schemas, so the document and the server cannot disagree.
 */
import type { Request, RequestHandler, Response, Router } from 'express';
import type { z } from 'zod';
import { CONTROL_CHARACTER } from '../../control-characters.js';
import { notFound, parseOr400 } from '../../errors.js';

export interface RouteSpec<B extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType> {
  method: 'get' | 'post';
  /** Express path under /v1, e.g. `/orders/:orderId/capture`. */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  body?: B;
  query?: Q;
  /** Path parameters and their descriptions. */
  params?: Record<string, string>;
  responses: Record<number, { description: string; schema?: z.ZodType }>;
  /**
   * A field of the answer that is a secret (a session's widget token): an Idempotency-Key keeps
   * the answer without it, and a replay makes it again from the rest of the answer.
   */
  secretField?: { name: string; remake(answer: Record<string, unknown>): string | undefined };
}

export interface Parsed<B, Q> {
  body: B;
  query: Q;
  params: Record<string, string>;
}

export type Handler<B, Q> = (input: Parsed<B, Q>, req: Request, res: Response) => Promise<void>;

/**
 * Collects the specs of one merchant API instance while registering their handlers. `before` runs
 * on every POST route once the route matched (so it can read `req.route` and `req.params`), ahead
 * of validation: the Idempotency-Key check.
 */
export interface RouteTable {
  readonly specs: RouteSpec[];
  add<B extends z.ZodType, Q extends z.ZodType>(
    spec: RouteSpec<B, Q>,
    handler: Handler<z.output<B>, z.output<Q>>,
  ): void;
}

export function createRouteTable(
  router: Router,
  before: { post?: (spec: RouteSpec) => RequestHandler } = {},
): RouteTable {
  const specs: RouteSpec[] = [];
  return {
    specs,
    add(spec, handler) {
      specs.push(spec as unknown as RouteSpec);
      const first =
        spec.method === 'post' && before.post ? [before.post(spec as unknown as RouteSpec)] : [];
      router[spec.method](spec.path, ...first, async (req, res) => {
        // No id of ours holds a control character; PostgreSQL would refuse a NUL outright.
        for (const value of Object.values(req.params)) {
          if (CONTROL_CHARACTER.test(String(value))) throw notFound('resource');
        }
        const body = spec.body ? parseOr400(spec.body, req.body ?? {}) : undefined;
        const query = spec.query ? parseOr400(spec.query, req.query) : undefined;
        await handler(
          {
            body: body as never,
            query: query as never,
            params: req.params as Record<string, string>,
          },
          req,
          res,
        );
      });
    },
  };
}
