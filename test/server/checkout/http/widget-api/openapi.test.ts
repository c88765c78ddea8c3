/**
 * `GET /widget/openapi.json`: public (no session token), OpenAPI 3.1, its request schemas those
 * that validate the widget's requests: the body the element sends is valid by it, a card number
 * failing the pattern is not, and a 400 the server gives matches the error body it documents.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { payBody } from '../../../../support/fixtures.js';
import { type Backend, withSandboxAndBackend } from '../../../../support/loopback-stack.js';
import { createSession } from '../../../../support/widget-api-client.js';

type Json = Record<string, unknown>;

describe('widget API: its OpenAPI document', () => {
  let be: Backend;
  withSandboxAndBackend((started) => {
    ({ be } = started);
  });

  it('is served without a token and describes every widget route', async () => {
    const res = await fetch(`${be.url}/widget/openapi.json`);
    assert.equal(res.status, 200);
    const doc = (await res.json()) as {
      openapi: string;
      paths: Record<string, Json>;
      components: Json;
    };
    assert.equal(doc.openapi, '3.1.0');
    assert.deepEqual(Object.keys(doc.paths).sort(), [
      '/widget/cancel',
      '/widget/hosted',
      '/widget/method-result',
      '/widget/next',
      '/widget/pay',
      '/widget/session',
    ]);
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema(doc, 'widget');
    const payRequest = ajv.compile({
      $ref: 'widget#/paths/~1widget~1pay/post/requestBody/content/application~1json/schema',
    });
    assert.ok(payRequest(payBody()), ajv.errorsText(payRequest.errors));
    assert.equal(payRequest(payBody('4000 0000 0000 0002')), false);

    // A real refusal reads as the document says.
    const session = await createSession(be.url);
    const refused = await fetch(`${be.url}/widget/cancel`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${session.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ reason: 'no-such-reason' }),
    });
    assert.equal(refused.status, 400);
    const errorBody = ajv.compile({
      $ref: 'widget#/paths/~1widget~1cancel/post/responses/400/content/application~1json/schema',
    });
    const body = await refused.json();
    assert.ok(errorBody(body), ajv.errorsText(errorBody.errors));
    assert.equal((body as { error: { field: string } }).error.field, 'reason');
  });
});
