/**
 * Any merchant operation by its id (captures, voids and returns have no resource of their own),
 * and, for a capture, void or return, the one way out of `unknown` that the gateway cannot give:
 * a person who checked the gateway's back office says what happened. A lost return equal to an
 * earlier final one stays `unknown` (money-ops.ts, pollMoneyOp), and until it is resolved its
 * order takes no further capture or return.
 */
import { type MerchantOperation, MONEY_OPERATION_KINDS } from '../../../store/index.js';
import type { Context } from '../../context.js';
import { conflict, notFound } from '../../errors.js';
import { settleOperation } from '../../operations/operations-status.js';
import { operationView } from './operation-view.js';
import type { RouteTable } from './route-spec.js';
import { ErrorResponse, Operation, ResolveOperationBody } from './schemas.js';

const OPERATION_PARAM = { operationId: 'The operation id (`id` of an operation answer).' };

export function operationRoutes(ctx: Context, routes: RouteTable): void {
  const load = async (operationId: string): Promise<MerchantOperation> => {
    const operation = await ctx.store.operations.get(operationId);
    if (!operation) throw notFound(`Operation ${operationId}`);
    return operation;
  };

  routes.add(
    {
      method: 'get',
      path: '/operations/:operationId',
      operationId: 'getOperation',
      summary: 'Read one operation (capture, void, return, rebill, payout, transfer, ...).',
      tag: 'Operations',
      params: OPERATION_PARAM,
      responses: {
        200: { description: 'The operation as stored', schema: Operation },
        404: { description: 'Not found', schema: ErrorResponse },
      },
    },
    async ({ params }, _req, res) => {
      res.json(operationView(await load(params.operationId ?? '')));
    },
  );

  routes.add(
    {
      method: 'post',
      path: '/operations/:operationId/resolve',
      operationId: 'resolveOperation',
      summary:
        "Record the final status of an `unknown` operation, as the gateway's back office shows it.",
      tag: 'Operations',
      params: OPERATION_PARAM,
      body: ResolveOperationBody,
      responses: {
        200: {
          description:
            'Final; an approved capture, void or return moves the order, and the webhook is queued',
          schema: Operation,
        },
        400: { description: 'Invalid body (`status` or `note`)', schema: ErrorResponse },
        404: { description: 'Not found', schema: ErrorResponse },
        409: {
          description:
            'Not a capture, void or return, or not `unknown` (the message names its status)',
          schema: ErrorResponse,
        },
      },
    },
    async ({ params, body }, _req, res) => {
      const operation = await load(params.operationId ?? '');
      // A rebill, payout or transfer carries the merchant's own order id, by which the reconciler
      // finds it at the gateway; and its back-office line is no sure sign of money moving (a
      // payout's check step shows approved while nothing is paid).
      if (!(MONEY_OPERATION_KINDS as readonly string[]).includes(operation.kind)) {
        throw conflict(
          `Operation ${operation.id} is a ${operation.kind}; only a capture, void or return is resolved`,
        );
      }
      if (operation.status !== 'unknown') {
        throw conflict(
          `Operation ${operation.id} is ${operation.status}; only unknown is resolved`,
        );
      }
      const { operation: resolved, won } = await settleOperation(ctx, operation, body.status, {
        reason: `Resolved by the merchant: ${body.note}`,
      });
      // The reconciler or another resolve may have settled it meanwhile: theirs stands, and the
      // caller hears it.
      if (!won) throw conflict(`Operation ${operation.id} became ${resolved.status} meanwhile`);
      ctx.logger.warn(
        { operationId: operation.id, kind: operation.kind, status: body.status },
        'an unknown operation resolved by the merchant',
      );
      res.json(operationView(resolved));
    },
  );
}
