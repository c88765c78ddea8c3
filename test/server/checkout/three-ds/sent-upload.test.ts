/**
 * Pure parts of a lost 3DS upload (server/src/checkout/three-ds/sent-upload.ts): when the
 * gateway's status shows it never got the upload, when a resend is due, and reading the record
 * back from the stored flow state.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fingerprint } from '../../../../server/src/checkout/following/flow-state.js';
import {
  gatewayStillAwaits,
  readSentUpload,
  resendDue,
  type SentUpload,
  UPLOAD_MAX_SENDS,
  UPLOAD_RESEND_AFTER_MS,
} from '../../../../server/src/checkout/three-ds/sent-upload.js';

const TRANS = '3d671629-a410-4a5d-9288-b38ceadd41f2';
const method: SentUpload = {
  kind: 'method',
  fields: {
    threeDSServerTransID: TRANS,
    browserAcceptHeader: '*/*',
    browserIP: '203.0.113.9',
    browserJavaEnabled: false,
    browserJavascriptEnabled: true,
    browserLanguage: 'en-GB',
    browserColorDepth: 24,
    browserScreenHeight: 900,
    browserScreenWidth: 1440,
    browserTZ: -60,
    browserUserAgent: 'Mozilla/5.0',
    challengeWindowSize: '03',
    threeDSCompInd: 'Y',
  },
  sentAt: 1_000,
  sends: 1,
};
const cres: SentUpload = {
  kind: 'cres',
  key: fingerprint('creq-1'),
  cres: 'eyJ9',
  sentAt: 1_000,
  sends: 1,
};

describe('a lost 3DS upload', () => {
  it('the method result: still awaited only while the status asks for it and nothing further', () => {
    assert.equal(
      gatewayStillAwaits(method, { status: 'processing', threeDsServerTransId: TRANS }, undefined),
      true,
    );
    // Moved on: authenticating (no 3DS fields), a challenge, a final status.
    assert.equal(gatewayStillAwaits(method, { status: 'processing' }, undefined), false);
    assert.equal(
      gatewayStillAwaits(
        method,
        { status: 'processing', threeDsServerTransId: TRANS, acsUrl: 'https://acs', creq: 'c' },
        fingerprint('c'),
      ),
      false,
    );
    assert.equal(
      gatewayStillAwaits(method, { status: 'approved', threeDsServerTransId: TRANS }, undefined),
      false,
    );
    // Another 3DS transaction is not this upload's.
    assert.equal(
      gatewayStillAwaits(
        method,
        { status: 'processing', threeDsServerTransId: 'other' },
        undefined,
      ),
      false,
    );
  });

  it('a CRes or PaRes: still awaited while the status shows the very challenge it answers', () => {
    const fields = { status: 'processing', acsUrl: 'https://acs', creq: 'creq-1' };
    assert.equal(gatewayStillAwaits(cres, fields, fingerprint('creq-1')), true);
    assert.equal(gatewayStillAwaits(cres, fields, fingerprint('creq-2')), false);
    assert.equal(gatewayStillAwaits(cres, { status: 'processing' }, undefined), false);
    assert.equal(gatewayStillAwaits(cres, { status: 'declined' }, undefined), false);
  });

  it('a resend is due after the grace period, and only a few times', () => {
    assert.equal(resendDue(cres, cres.sentAt + UPLOAD_RESEND_AFTER_MS - 1), false);
    assert.equal(resendDue(cres, cres.sentAt + UPLOAD_RESEND_AFTER_MS), true);
    assert.equal(
      resendDue({ ...cres, sends: UPLOAD_MAX_SENDS }, cres.sentAt + 10 * UPLOAD_RESEND_AFTER_MS),
      false,
    );
  });

  it('reads back what it stored, and nothing from a malformed record', () => {
    assert.deepEqual(readSentUpload(JSON.parse(JSON.stringify(method))), method);
    assert.deepEqual(readSentUpload(JSON.parse(JSON.stringify(cres))), cres);
    const pares = { kind: 'pares', key: 'k', paRes: 'p', sentAt: 1, sends: 1 };
    assert.deepEqual(readSentUpload(pares), pares);
    for (const bad of [
      undefined,
      null,
      'x',
      { kind: 'cres', key: 'k', sentAt: 1, sends: 1 },
      { kind: 'method', sentAt: 1, sends: 1 },
      { kind: 'pares', key: 'k', paRes: 'p', sends: 1 },
      { kind: 'other', sentAt: 1, sends: 1 },
    ]) {
      assert.equal(readSentUpload(bad), undefined, JSON.stringify(bad));
    }
  });
});
