/**
 * The 3-D Secure messages the fake ACS and the uploads exchange: EMV CReq/CRes and method data as
 * base64url JSON (no padding sent; padding tolerated on input), 3DS 1.0.2 PaReq/PaRes as
 * deflate + base64 XML. Decoders return undefined for anything malformed, never throw.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Transaction } from '../model.js';

export const MESSAGE_VERSION = '2.2.0';

export function encodeJson(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

export function decodeJson(text: string | undefined): Record<string, unknown> | undefined {
  if (!text || text.length > 8192 || !/^[A-Za-z0-9_\-+/]+={0,2}$/.test(text)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export function creqFor(tx: Transaction): string {
  const threeDs = tx.threeDs!;
  return encodeJson({
    threeDSServerTransID: threeDs.serverTransId,
    acsTransID: threeDs.acsTransId,
    messageVersion: MESSAGE_VERSION,
    messageType: 'CReq',
    challengeWindowSize: threeDs.challengeWindowSize ?? '05',
  });
}

export function cresFor(tx: Transaction, transStatus: 'Y' | 'N', cancelled: boolean): string {
  const threeDs = tx.threeDs!;
  return encodeJson({
    threeDSServerTransID: threeDs.serverTransId,
    acsTransID: threeDs.acsTransId,
    messageVersion: MESSAGE_VERSION,
    messageType: 'CRes',
    transStatus,
    challengeCompletionInd: 'Y',
    ...(cancelled ? { challengeCancel: '01' } : {}),
  });
}

function deflateXml(xml: string): string {
  return deflateRawSync(Buffer.from(xml, 'utf8')).toString('base64');
}

function inflateXml(text: string | undefined): string | undefined {
  if (!text || text.length > 8192 || !/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return undefined;
  try {
    return inflateRawSync(Buffer.from(text, 'base64')).toString('utf8');
  } catch {
    return undefined;
  }
}

const tag = (xml: string, name: string) =>
  new RegExp(`<${name}>([^<]{0,256})</${name}>`).exec(xml)?.[1];

export function pareqFor(tx: Transaction): string {
  return deflateXml(
    `<ThreeDSecure><Message id="${tx.orderid}"><PAReq><version>1.0.2</version>` +
      `<xid>${tx.threeDs!.acsTransId}</xid><purchAmount>${tx.amountMinor}</purchAmount>` +
      `<currency>${tx.currency}</currency><pan>${tx.card?.lastFour ?? ''}</pan></PAReq></Message></ThreeDSecure>`,
  );
}

export function decodePareq(text: string | undefined): { xid: string } | undefined {
  const xml = inflateXml(text);
  const xid = xml ? tag(xml, 'xid') : undefined;
  return xid ? { xid } : undefined;
}

export function paresFor(tx: Transaction, status: 'Y' | 'N'): string {
  return deflateXml(
    `<ThreeDSecure><Message id="${tx.orderid}"><PARes><version>1.0.2</version>` +
      `<xid>${tx.threeDs!.acsTransId}</xid><TX><status>${status}</status></TX></PARes></Message></ThreeDSecure>`,
  );
}

export function decodePares(text: string | undefined): { xid: string; status: string } | undefined {
  const xml = inflateXml(text);
  if (!xml) return undefined;
  const xid = tag(xml, 'xid');
  const status = tag(xml, 'status');
  return xid && status ? { xid, status } : undefined;
}
