/**
 * The table of state moves: every state a checkout session and an order (one payment attempt)
 * may move from and to, each with why. The repositories read it: a `transition` (and each move
 * written as its own statement) refuses a move that is not here, with StateMoveRefusedError, so
 * the code cannot make a move this table (and the doc drawn from it, `stateMovesMarkdown`) does
 * not show.
 *
 * Staying in a state is not a move: a transition to the state a row is in rewrites its fields
 * under compare-and-set (a status answer that changes the flow, not the status) and is allowed.
 * The reversal fields (`abandonedAt`, `reversalReason`, `reversedAt`) change no state: they are
 * written by their own compare-and-set methods (orders.ts).
 */
import type { OrderStatus, SessionState } from '../../../contract/api-types.js';
import { StoreError } from './errors.js';
import type { PaymentLinkState } from './payment-links.js';

/**
 * Gateway statuses plus our own: `awaiting-payment` (its checkout session is open, the shopper has
 * not paid), `expired` (the session ended unpaid: nothing was ever sent to the gateway) and `new`
 * (the shopper paid, the gateway has not answered yet).
 */
export type OrderState = OrderStatus | 'awaiting-payment' | 'expired' | 'new';

/** Which record moves: a checkout session, an order (a payment attempt), or a payment link. */
export type StateMachine = 'session' | 'order' | 'payment link';

interface StatesOf {
  session: SessionState;
  order: OrderState;
  'payment link': PaymentLinkState;
}

/** Moves from each of `from` to each of `to`. An empty `from`: the state a new row starts in. */
export interface StateMove<State extends string> {
  from: readonly State[];
  to: readonly State[];
  /** One line, for the doc's table. */
  why: string;
}

const PENDING = ['new', 'processing', 'unknown'] as const;

export const SESSION_MOVES: readonly StateMove<SessionState>[] = [
  {
    from: [],
    to: ['open'],
    why: "The merchant's server creates it; its order is created with it (`awaiting-payment`).",
  },
  {
    from: ['open'],
    to: ['paying'],
    why: 'The shopper pays: the claim takes one attempt at a time, so a double submit gets the same one.',
  },
  {
    from: ['open'],
    to: ['expired'],
    why: 'Past its expiry unpaid (the sweeper, or a late claim), or ended early by the merchant.',
  },
  {
    from: ['paying'],
    to: ['open'],
    why: 'Its attempt failed or was left, and it takes another (attempts left, not expired).',
  },
  {
    from: ['open', 'paying'],
    to: ['cancelled'],
    why: 'The shopper left the bank page of its last attempt (none left, or past its expiry).',
  },
  {
    from: ['open', 'paying'],
    to: ['completed'],
    why: 'Its attempt failed and it takes no more (none left, or past its expiry).',
  },
  {
    from: ['open', 'paying'],
    to: ['completed'],
    why: 'An attempt was approved first (even one whose bank page was left): the session keeps it. An ended session (`expired`, `cancelled`, `completed`) never does: that approval is reversed.',
  },
];

export const ORDER_MOVES: readonly StateMove<OrderState>[] = [
  {
    from: [],
    to: ['awaiting-payment'],
    why: "A session's first attempt, created with the session: nothing paid yet.",
  },
  {
    from: [],
    to: ['new'],
    why: 'A further attempt, created when its session takes another payment.',
  },
  {
    from: ['awaiting-payment'],
    to: ['new'],
    why: "The shopper pays: the session's claim starts its first attempt.",
  },
  {
    from: ['awaiting-payment'],
    to: ['expired'],
    why: 'Its session ended unpaid: nothing was ever sent to the gateway.',
  },
  {
    from: ['new', 'unknown'],
    to: ['processing'],
    why: 'The gateway took the payment request, or a status answer says it goes on.',
  },
  {
    from: ['new', 'processing'],
    to: ['unknown'],
    why: "The request's answer was lost (the gateway may have it), or a status answer says unknown.",
  },
  {
    from: PENDING,
    to: ['approved', 'declined', 'error', 'filtered'],
    why: "The gateway's final word (status answer, callback, or a refused request): once, whoever wins.",
  },
];

export const PAYMENT_LINK_MOVES: readonly StateMove<PaymentLinkState>[] = [
  { from: [], to: ['active'], why: "The merchant's server creates it." },
  {
    from: ['active'],
    to: ['paid'],
    why: "A visit's approval was its last payment (a one-off link's one, a reusable link's `maxPayments`-th), counted under the link's lock.",
  },
  {
    from: ['active'],
    to: ['expired'],
    why: 'Past its expiry (the sweeper, or the first read after it): `payment_link.expired`.',
  },
  { from: ['active'], to: ['deactivated'], why: 'Ended by the merchant.' },
  {
    from: ['expired'],
    to: ['paid'],
    why: "A visit's attempt started before the expiry and approved after it: kept, and it was the last payment.",
  },
];

const MOVES: { [M in StateMachine]: readonly StateMove<StatesOf[M]>[] } = {
  session: SESSION_MOVES,
  order: ORDER_MOVES,
  'payment link': PAYMENT_LINK_MOVES,
};

/** Whether the table has `from` -> `to` (staying put always is: it is not a move). */
export function isAllowedMove<M extends StateMachine>(
  machine: M,
  from: StatesOf[M],
  to: StatesOf[M],
): boolean {
  if (from === to) return true;
  const moves: readonly StateMove<string>[] = MOVES[machine];
  return moves.some((move) => move.from.includes(from) && move.to.includes(to));
}

/** The states the table lets a row move from into `to`, `to` itself first (staying put). */
export function statesMovingTo<M extends StateMachine>(machine: M, to: StatesOf[M]): StatesOf[M][] {
  const moves: readonly StateMove<StatesOf[M]>[] = MOVES[machine];
  const from = moves.filter((move) => move.to.includes(to)).flatMap((move) => move.from);
  return [...new Set([to, ...from])];
}

/** A move the table of moves does not have: nothing was written. */
export class StateMoveRefusedError extends StoreError {
  readonly machine: StateMachine;
  readonly from: string;
  readonly to: string;

  constructor(machine: StateMachine, from: string, to: string) {
    super(
      'store-move',
      `No ${machine} move ${from} -> ${to} in the table of moves (state-moves.ts)`,
    );
    this.machine = machine;
    this.from = from;
    this.to = to;
  }
}

/**
 * Throws StateMoveRefusedError unless the table has a move from each of `from` to `to`: called
 * before the statement that would make it, so a refused move writes nothing.
 */
export function assertMoves<M extends StateMachine>(
  machine: M,
  from: readonly StatesOf[M][],
  to: StatesOf[M],
): void {
  for (const state of from) {
    if (!isAllowedMove(machine, state, to)) throw new StateMoveRefusedError(machine, state, to);
  }
}

const states = (list: readonly string[]) =>
  list.length === 0 ? '(created)' : list.map((s) => `\`${s}\``).join(', ');

/**
 * The table as Markdown (a header and one row per move), as docs/architecture.md shows it: its
 * test asserts the doc holds this text, so the doc and the code cannot disagree.
 */
export function stateMovesMarkdown(): string {
  const rows = (Object.keys(MOVES) as StateMachine[]).flatMap((machine) =>
    (MOVES[machine] as readonly StateMove<string>[]).map(
      (move) => `| ${machine} | ${states(move.from)} | ${states(move.to)} | ${move.why} |`,
    ),
  );
  return ['| record | from | to | why |', '|---|---|---|---|', ...rows].join('\n');
}
