/**
 * The two OAuth signature methods the gateway uses, as data: how each signs a base string and
 * how each checks a signature.
 */
import {
  createHmac,
  createPrivateKey,
  createPublicKey,
  type KeyObject,
  sign as rsaSign,
  verify as rsaVerify,
} from 'node:crypto';
import { constantTimeEqual } from './compare.js';
import { SigningError } from './errors.js';
import { percentEncode } from './oauth-base-string.js';

export const MIN_RSA_BITS = 2048;

export type OAuthSignatureMethod = 'HMAC-SHA1' | 'RSA-SHA256';

/** HMAC-SHA1 keyed `enc(consumer secret)&enc(token secret)`; the gateway's token secret is empty. */
export function hmacSha1Signature(baseString: string, consumerSecret: string, tokenSecret = '') {
  const key = `${percentEncode(consumerSecret)}&${percentEncode(tokenSecret)}`;
  return createHmac('sha1', key).update(baseString, 'utf8').digest('base64');
}

export function verifyHmacSha1(
  baseString: string,
  signature: string,
  consumerSecret: string,
): boolean {
  return constantTimeEqual(hmacSha1Signature(baseString, consumerSecret), signature);
}

/** RSASSA-PKCS1-v1_5 with SHA-256 over the UTF-8 base string, base64. Deterministic. */
export function rsaSha256Signature(baseString: string, privateKey: KeyObject): string {
  return rsaSign('sha256', Buffer.from(baseString, 'utf8'), privateKey).toString('base64');
}

export function verifyRsaSha256(baseString: string, signature: string, publicKey: KeyObject) {
  try {
    return rsaVerify(
      'sha256',
      Buffer.from(baseString, 'utf8'),
      publicKey,
      Buffer.from(signature, 'base64'),
    );
  } catch {
    return false;
  }
}

/** A PKCS#1 or PKCS#8 PEM private key, refused unless it is RSA of at least 2048 bits. */
export function loadRsaPrivateKey(pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch (cause) {
    throw new SigningError(
      'invalid-private-key',
      'the private key is not an unencrypted PKCS#1 or PKCS#8 PEM key',
      { cause },
    );
  }
  return requireStrongRsa(key, 'private');
}

/** An SPKI or PKCS#1 PEM public key (or a private key, whose public half is used). */
export function loadRsaPublicKey(pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: 'pem' });
  } catch (cause) {
    throw new SigningError('invalid-private-key', 'the public key is not a PEM RSA key', { cause });
  }
  return requireStrongRsa(key, 'public');
}

function requireStrongRsa(key: KeyObject, kind: 'private' | 'public'): KeyObject {
  if (key.asymmetricKeyType !== 'rsa') {
    throw new SigningError(
      'invalid-private-key',
      `the ${kind} key is ${key.asymmetricKeyType}, not RSA`,
    );
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_RSA_BITS) {
    throw new SigningError(
      'weak-private-key',
      `the ${kind} key has ${bits} bits; the gateway requires at least ${MIN_RSA_BITS}`,
    );
  }
  return key;
}
