/** `POST /v1/checkout-sessions`: the merchant fixes amount, currency, intent and customer. */
import { toMinorUnits } from '../../signing/index.js';
import type { Context } from '../context.js';
import { HttpError } from '../errors.js';
import { signSessionToken } from '../widget-api/jwt.js';
import type { RouteTable } from './route-spec.js';
import { CreateSessionBody, ErrorResponse, SessionCreated } from './schemas.js';

export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown })?.code === '23505';
}

export function sessionRoutes(ctx: Context, routes: RouteTable): void {
  routes.add(
    {
      method: 'post',
      path: '/checkout-sessions',
      operationId: 'createCheckoutSession',
      summary: 'Create a checkout session; its token goes to the <pay-checkout> element.',
      tag: 'Checkout sessions',
      body: CreateSessionBody,
      responses: {
        201: { description: 'Created', schema: SessionCreated },
        409: { description: 'orderId already used', schema: ErrorResponse },
      },
    },
    async ({ body }, _req, res) => {
      const taken =
        (await ctx.store.sessions.getByClientOrderId(body.orderId)) ??
        (await ctx.store.orders.getByClientOrderId(body.orderId));
      if (taken) throw new HttpError(409, 'conflict', `orderId ${body.orderId} is already used`);
      const expiresAt = new Date(Date.now() + body.expiresInMinutes * 60_000);
      let session: Awaited<ReturnType<typeof ctx.store.sessions.create>>;
      try {
        session = await ctx.store.sessions.create({
          clientOrderId: body.orderId,
          amountMinor: toMinorUnits(body.amount, body.currency),
          currency: body.currency,
          intent: body.intent,
          description: body.description,
          customer: { ...body.customer },
          returnUrl: body.returnUrl ?? null,
          metadata: body.metadata ?? {},
          expiresAt,
        });
      } catch (error) {
        if (isUniqueViolation(error))
          throw new HttpError(409, 'conflict', `orderId ${body.orderId} is already used`);
        throw error;
      }
      res.status(201).json({
        id: session.id,
        token: signSessionToken(ctx.config.jwtSecret, session.id, session.expiresAt),
        expiresAt: session.expiresAt.toISOString(),
      });
    },
  );
}
