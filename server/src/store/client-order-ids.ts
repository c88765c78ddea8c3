/**
 * One namespace for every gateway `client_orderid` this backend creates. The gateway (the sandbox
 * too, as the real family does) answers a repeat of a client_orderid with the same type, amount
 * and currency with the transaction it already has, and the reconciler finds a transaction whose
 * answer was lost by its client_orderid: two records of ours under one id could share one gateway
 * charge. So each id is claimed once, in the same transaction as the row that will send it, by:
 *
 * - a checkout session: the merchant's orderId, which is also its first attempt's client_orderid;
 * - a further payment attempt of a session (`<orderId>-2`, ...; store/sessions.ts);
 * - a merchant operation that sends a fresh client_orderid (`CLAIMING_OPERATION_KINDS`,
 *   operations.ts).
 *
 * Follow-on requests on an existing transaction (capture, void, return, create-card-ref, the
 * second step of a two-step payout, status) send that transaction's own client_orderid and claim
 * nothing; a recurring payment sends none (create-recurring-payment takes no client_orderid).
 *
 * The primary key is the check: of two instances racing for one id, one insert waits for the
 * other's transaction and then finds the id taken.
 */
import { StoreError } from './errors.js';
import type { Executor } from './sql.js';

/**
 * What holds a client_orderid: a session, a further attempt (an order row), or an operation of a
 * kind that sends one (`CLAIMING_OPERATION_KINDS`, operations.ts), named by its kind. A string
 * here, so this file needs nothing from operations.ts (which claims through it).
 */
export interface ClientOrderIdOwner {
  kind: 'session' | 'attempt' | (string & {});
  /** The session's, the order row's or the operation's id. */
  id: string;
}

/** The holder as the merchant knows it: an attempt names its order's merchant id and number. */
export interface ClientOrderIdHolder extends ClientOrderIdOwner {
  merchantOrderId?: string;
  attempt?: number;
}

/** The id is held already (by `holder`, when it could be read): nothing was written. */
export class ClientOrderIdTakenError extends StoreError {
  readonly clientOrderId: string;
  readonly holder: ClientOrderIdHolder | null;

  constructor(clientOrderId: string, holder: ClientOrderIdHolder | null) {
    super(
      'store-client-orderid-taken',
      `client_orderid ${clientOrderId} is held by ${holder ? `${holder.kind} ${holder.id}` : 'another record'}`,
    );
    this.clientOrderId = clientOrderId;
    this.holder = holder;
  }
}

export function createClientOrderIdRepository(q: Executor) {
  const holderOf = async (clientOrderId: string): Promise<ClientOrderIdHolder | null> => {
    const { rows } = await q.query(
      `select c.owner_kind, c.owner_id, o.merchant_orderid, o.attempt
         from client_order_ids c
         left join orders o on c.owner_kind = 'attempt' and o.id = c.owner_id
        where c.client_orderid = $1`,
      [clientOrderId],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      kind: String(row.owner_kind) as ClientOrderIdOwner['kind'],
      id: String(row.owner_id),
      ...(row.merchant_orderid == null ? {} : { merchantOrderId: String(row.merchant_orderid) }),
      ...(row.attempt == null ? {} : { attempt: Number(row.attempt) }),
    };
  };

  /** Claims `clientOrderId` for `owner`; false when something holds it already. */
  const tryClaim = async (clientOrderId: string, owner: ClientOrderIdOwner): Promise<boolean> => {
    const { rows } = await q.query(
      `insert into client_order_ids (client_orderid, owner_kind, owner_id) values ($1, $2, $3)
       on conflict (client_orderid) do nothing returning client_orderid`,
      [clientOrderId, owner.kind, owner.id],
    );
    return rows.length > 0;
  };

  return {
    tryClaim,

    /**
     * Claims `clientOrderId` for `owner`, or throws ClientOrderIdTakenError naming its holder. Run
     * it in the transaction that writes the owner's row, before that row: the throw rolls back.
     */
    async claim(clientOrderId: string, owner: ClientOrderIdOwner): Promise<void> {
      if (await tryClaim(clientOrderId, owner)) return;
      throw new ClientOrderIdTakenError(clientOrderId, await holderOf(clientOrderId));
    },

    holderOf,
  };
}

export type ClientOrderIdRepository = ReturnType<typeof createClientOrderIdRepository>;
