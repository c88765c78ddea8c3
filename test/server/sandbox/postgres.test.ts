/**
 * The sandbox on PostgreSQL (the same store module the backend uses): state kept in the
 * database, so a sandbox restarted on it finishes what the first one started. Runs whenever
 * TEST_DATABASE_URL is set (CI sets it when a server answers), in a schema of its own.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import request from 'supertest';
import { createSandboxApp, DEV_MERCHANT } from '../../../server/src/sandbox/index.js';
import { computeControl } from '../../../server/src/signing/index.js';
import { openDatabase } from '../../../server/src/store/engine/database.js';
import { saleRequest } from './helpers.js';

const url = process.env.TEST_DATABASE_URL;

async function post(
  app: Parameters<typeof request>[0],
  op: string,
  fields: Record<string, string>,
) {
  const answer = await request(app)
    .post(`/paynet/api/v2/${op}/${DEV_MERCHANT.endpointId}`)
    .set('Accept', 'application/vnd.pay+json')
    .type('form')
    .send(fields);
  return JSON.parse(answer.text) as Record<string, string>;
}

// A suite skipped without a server, never left undefined: a file with no test at all never ends
// under `--test-force-exit` (scripts/test-node.sh) in Node 20.
describe('the sandbox on PostgreSQL', { skip: !url && 'no TEST_DATABASE_URL' }, () => {
  it('a restarted sandbox finishes the sale the first one accepted', async () => {
    if (!url) return;
    const schema = `sandbox_test_${randomBytes(6).toString('hex')}`;
    const db = await openDatabase({ url, schema });
    const { endpointId, login, controlKey } = DEV_MERCHANT;
    try {
      const first = await createSandboxApp({ database: db, processingDelayMs: 5 });
      const sale = saleRequest('4000000000000002');
      const ack = await post(first.app, 'sale', {
        ...sale,
        control: computeControl('sale', { endpointId, ...sale }, controlKey),
      });
      assert.equal(ack.type, 'async-response');
      await first.close();

      const second = await createSandboxApp({ database: db, processingDelayMs: 5 });
      try {
        await new Promise((resolve) => setTimeout(resolve, 50));
        await second.idle();
        const fields = {
          login,
          client_orderid: sale.client_orderid,
          orderid: ack['paynet-order-id'] ?? '',
        };
        const status = await post(second.app, 'status', {
          ...fields,
          control: computeControl('status', fields, controlKey),
        });
        assert.deepEqual(
          [status.status, status.amount, status.currency],
          ['approved', sale.amount, sale.currency],
        );
      } finally {
        await second.close();
      }
    } finally {
      await db.query(`drop schema ${schema} cascade`);
      await db.close();
    }
  });
});
