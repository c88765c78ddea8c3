/**
 * The events the backend sends to WEBHOOK_URL, for the merchant to read back: a shop whose
 * endpoint was down longer than the retries last, or that lost what it received, catches up by
 * listing them (undelivered first of all), and asks for one to be sent again.
 */
import type { MerchantWebhook } from '../../../store/index.js';
import type { Context } from '../../context.js';
import { notFound } from '../../errors.js';
import type { RouteTable } from './route-spec.js';
import {
  EmptyBody,
  ErrorResponse,
  EVENT_PARAM,
  Event,
  EventList,
  ListEventsQuery,
} from './schemas.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** The event as delivered (its payload), and how its delivery stands. */
export function eventView(row: MerchantWebhook) {
  const pending = row.deliveredAt === null && row.failedAt === null;
  return {
    ...(row.payload as { id: string; type: string; createdAt: string; data: object }),
    delivery: {
      delivered: row.deliveredAt !== null,
      deliveredAt: iso(row.deliveredAt),
      attempts: row.attempts,
      nextAttemptAt: pending ? iso(row.nextAttemptAt) : null,
      failedAt: iso(row.failedAt),
      lastError: row.lastError,
    },
  };
}

export function eventRoutes(ctx: Context, routes: RouteTable): void {
  routes.add(
    {
      method: 'get',
      path: '/events',
      operationId: 'listEvents',
      summary:
        'List the webhook events, newest first, by type, order and delivery, with a cursor (empty without WEBHOOK_URL).',
      tag: 'Events',
      query: ListEventsQuery,
      responses: { 200: { description: 'A page of events', schema: EventList } },
    },
    async ({ query }, _req, res) => {
      const page = await ctx.store.webhooks.list({
        type: query.type,
        orderId: query.orderId,
        delivered: query.delivered,
        limit: query.limit,
        cursor: query.cursor,
      });
      res.json({ events: page.events.map(eventView), nextCursor: page.nextCursor });
    },
  );

  routes.add(
    {
      method: 'post',
      path: '/events/:eventId/redeliver',
      operationId: 'redeliverEvent',
      summary:
        'Send an event to WEBHOOK_URL again now, delivered or given up before; the usual retries follow, counted from now (`attempts` from 0, the three-day window from the redelivery).',
      tag: 'Events',
      params: EVENT_PARAM,
      body: EmptyBody,
      responses: {
        202: { description: 'Queued for delivery', schema: Event },
        404: { description: 'No such event', schema: ErrorResponse },
      },
    },
    async ({ params }, _req, res) => {
      const found = await ctx.store.webhooks.byEventId(params.eventId ?? '');
      const queued = found && (await ctx.store.webhooks.redeliver(found.id));
      if (!queued) throw notFound(`Event ${params.eventId}`);
      res.status(202).json(eventView(queued));
    },
  );
}
