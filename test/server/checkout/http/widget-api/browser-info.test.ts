/**
 * The browser fields the backend accepts: the element leaves out javaEnabled and javascriptEnabled
 * (every browser that runs it answers them alike), and the backend sends EMV's values for them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BrowserInfoSchema } from '../../../../../server/src/checkout/http/widget-api/schemas.js';
import { BROWSER } from '../../../../support/fixtures.js';

describe('browser fields', () => {
  it('javaEnabled false and javascriptEnabled true when absent; as sent when present', () => {
    const { javaEnabled: _java, javascriptEnabled: _js, ...fromElement } = BROWSER;
    const accepted = BrowserInfoSchema.parse(fromElement);
    assert.equal(accepted.javaEnabled, false);
    assert.equal(accepted.javascriptEnabled, true);
    assert.equal(BrowserInfoSchema.parse({ ...fromElement, javaEnabled: true }).javaEnabled, true);
    const noScript = BrowserInfoSchema.safeParse({ ...fromElement, javascriptEnabled: false });
    assert.equal(noScript.success, false);
  });
});
