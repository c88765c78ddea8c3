/**
 * A card reference the merchant forgot is charged no more through this backend: a rebill, a
 * recurring payment or a transfer naming it is refused (409 `card-ref-forgotten`, naming the field)
 * before anything is recorded or sent. A reference this backend never held (made elsewhere) is
 * charged as before: the backend cannot tell whose it is, and was never asked to forget it.
 *
 * The check and the charge's reservation (its merchant_operations row, `new`, with the reference
 * in `card_ref_id`) are one transaction, with the reference's row share-locked; forget.ts locks
 * the same row for update, then refuses while a charge of it is reserved and not yet answered.
 * When the two cross, the row lock orders them:
 * - the forget commits first: the charge then reads the row forgotten and is refused; nothing is
 *   recorded or sent;
 * - the charge is reserved first: the forget waits for that transaction, then finds the charge
 *   `new` and is refused for now (409, Retry-After), until the gateway's answer (or its loss) moves
 *   the charge on. That charge is then sent, since it was asked before the forget, and the forget
 *   repeated afterwards succeeds.
 * So a forget that has committed before a charge is sent is always seen by that charge.
 */
import type { MerchantOperation, NewMerchantOperation } from '../../store/index.js';
import type { Context } from '../context.js';
import { HttpError } from '../errors.js';

/** The card reference a charge names, and the request field that names it. */
export interface ChargedCardRef {
  id: string;
  field: string;
}

export function cardRefForgotten(ref: ChargedCardRef): HttpError {
  return new HttpError(
    409,
    'card-ref-forgotten',
    `${ref.field}: card reference ${ref.id} was forgotten (POST /v1/card-refs/${ref.id}/forget); it is charged no more`,
    ref.field,
  );
}

/**
 * Records the charge of `ref` (`new`: not yet sent) unless this backend holds the reference and
 * it was forgotten; then throws cardRefForgotten and records nothing.
 */
export function reserveCharge(
  ctx: Context,
  input: NewMerchantOperation,
  ref: ChargedCardRef,
): Promise<MerchantOperation> {
  return ctx.store.transaction(async (tx) => {
    const held = await tx.cardRefs.lockShared(ref.id);
    if (held?.forgottenAt) throw cardRefForgotten(ref);
    return tx.operations.create({ ...input, cardRefId: ref.id });
  });
}
