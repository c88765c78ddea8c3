/**
 * The saved cards a session offers are each listed once: two payments that each saved the same
 * card made two card references, and the element is shown one choice for them, the most recent
 * (accessibility review: two identical radio labels). Another card is still listed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SavedCardView } from '../../../../contract/api-types.js';
import { type Backend, withSandboxAndBackend } from '../../../support/loopback-stack.js';
import { createSession, Shopper, savedCard } from '../../../support/widget-api-client.js';

describe('the saved cards offered', () => {
  let be: Backend;
  withSandboxAndBackend((started) => {
    ({ be } = started);
  });

  it('lists a card saved twice once, by its most recent reference, beside another card', async () => {
    const older = (await savedCard(be)).ref;
    const newer = (await savedCard(be)).ref;
    const other = (await savedCard(be, 'saved-card-challenge')).ref;
    assert.notEqual(older, newer);
    const session = await createSession(be.url, { savedCards: [older, newer, other] });
    const shopper = new Shopper(be.url, session.token);
    const view = await shopper.call('GET', '/session');
    assert.equal(view.status, 200, JSON.stringify(view.body));
    const cards = view.body.savedCards as SavedCardView[];
    const labels = cards.map((c) => `${c.brand} ${c.last4} ${c.expMonth}/${c.expYear}`);
    assert.equal(new Set(labels).size, labels.length, labels.join(' | '));
    assert.equal(cards.length, 2, labels.join(' | '));
    // The one kept pays: it is the newer reference's handle (the session's offers, most recent first).
    const { rows } = await be.store.db.query(
      'select handle, card_ref_id from checkout_session_cards where session_id = $1',
      [session.id],
    );
    const refOf = new Map(rows.map((r) => [String(r.handle), String(r.card_ref_id)]));
    assert.deepEqual(
      cards.map((c) => refOf.get(c.handle)),
      [other, newer],
    );
  });
});
