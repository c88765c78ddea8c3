/**
 * The merchant endpoints the sandbox knows, and the dev merchant made when none is configured:
 * endpoint 1111 (group 2222), a fixed login and control key, and an RSA key pair kept in the data
 * folder (or one private temporary folder per process) so the backend can sign v4 calls with
 * the private key.
 */
import { generateKeyPair, type KeyObject } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadRsaPublicKey } from '../signing/index.js';
import { type MerchantOptions, SandboxConfigError } from './options.js';

export interface Merchant {
  endpointId: string;
  groupId?: string;
  login: string;
  controlKey: string;
  publicKey?: KeyObject;
}

export interface DevCredentials {
  endpointId: string;
  groupId: string;
  login: string;
  controlKey: string;
  privateKeyFile: string;
  publicKeyFile: string;
  publicKeyPem: string;
}

export const DEV_MERCHANT = {
  endpointId: '1111',
  groupId: '2222',
  login: 'sandbox-merchant',
  controlKey: 'SANDBOX-DEV-CONTROL-KEY-0000-1111',
} as const;

export class MerchantRegistry {
  readonly merchants: readonly Merchant[];

  constructor(merchants: readonly Merchant[]) {
    this.merchants = merchants;
  }

  byEndpoint(id: string): Merchant | undefined {
    return this.merchants.find((m) => m.endpointId === id);
  }

  byGroup(id: string): Merchant | undefined {
    return this.merchants.find((m) => m.groupId === id);
  }

  byLogin(login: string): Merchant | undefined {
    return this.merchants.find((m) => m.login === login);
  }
}

export async function loadMerchants(configured: readonly MerchantOptions[]): Promise<Merchant[]> {
  const merchants: Merchant[] = [];
  for (const m of configured) {
    let pem = m.publicKeyPem;
    if (!pem && m.publicKeyFile) {
      try {
        pem = await readFile(m.publicKeyFile, 'utf8');
      } catch {
        throw new SandboxConfigError(`MERCHANT_PUBLIC_KEY_FILE ${m.publicKeyFile} cannot be read`);
      }
    }
    let publicKey: KeyObject | undefined;
    if (pem) {
      try {
        publicKey = loadRsaPublicKey(pem);
      } catch (error) {
        throw new SandboxConfigError(
          `the public key of endpoint ${m.endpointId} is unusable: ${(error as Error).message}`,
        );
      }
    }
    merchants.push({
      endpointId: m.endpointId,
      login: m.login,
      controlKey: m.controlKey,
      ...(m.groupId ? { groupId: m.groupId } : {}),
      ...(publicKey ? { publicKey } : {}),
    });
  }
  return merchants;
}

const generateRsa = promisify(generateKeyPair);

interface KeyFiles {
  privateKeyFile: string;
  publicKeyFile: string;
  publicKeyPem: string;
}

/**
 * Without a data folder the key pair lives in one temporary folder per process: generating an
 * RSA-2048 pair takes a noticeable time, and a folder per start would be left behind by every
 * test run. Kept as a promise so concurrent starts share one generation.
 */
let temporaryKeys: Promise<KeyFiles> | undefined;

/** The dev merchant; its key pair is reused from `dataDir` when present there. */
export async function devMerchant(
  dataDir: string | undefined,
): Promise<{ merchant: Merchant; credentials: DevCredentials }> {
  let keys: Promise<KeyFiles>;
  if (dataDir) {
    keys = keyFilesIn(join(dataDir, 'sandbox-dev-merchant'));
  } else {
    temporaryKeys ??= temporaryKeyFiles();
    keys = temporaryKeys;
  }
  const files = await keys;
  const merchant: Merchant = { ...DEV_MERCHANT, publicKey: loadRsaPublicKey(files.publicKeyPem) };
  return { merchant, credentials: { ...DEV_MERCHANT, ...files } };
}

async function temporaryKeyFiles(): Promise<KeyFiles> {
  try {
    const folder = await mkdtemp(join(tmpdir(), 'sandbox-dev-merchant-'));
    // The keys outlive every sandbox of the process (they share them), not the process.
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
    return await keyFilesIn(folder);
  } catch (error) {
    // Not cached: the next start tries again.
    temporaryKeys = undefined;
    throw error;
  }
}

/** Reads the key pair kept in `folder`, or generates and writes one there. */
async function keyFilesIn(folder: string): Promise<KeyFiles> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const privateKeyFile = join(folder, 'private-key.pem');
  const publicKeyFile = join(folder, 'public-key.pem');
  let publicKeyPem: string;
  try {
    publicKeyPem = await readFile(publicKeyFile, 'utf8');
    await readFile(privateKeyFile, 'utf8');
  } catch {
    const pair = await generateRsa('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    await writeFile(privateKeyFile, pair.privateKey, { mode: 0o600 });
    await writeFile(publicKeyFile, pair.publicKey, { mode: 0o644 });
    publicKeyPem = pair.publicKey;
  }
  return { privateKeyFile, publicKeyFile, publicKeyPem };
}
