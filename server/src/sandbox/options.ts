/**
 * The sandbox's options, and the one pure mapping from environment variables to them (main.ts
 * reads the environment; this file never touches `process.env`).
 */
import type pino from 'pino';
import { PayCheckoutError } from '../errors.js';
import type { Database } from '../store/engine/types.js';
import type { FaultSettings } from './faults.js';
import type { CallbackFetch } from './http/callback-get.js';
import type { Clock } from './scheduler.js';

export interface MerchantOptions {
  endpointId: string;
  /** An endpoint group id that maps to this endpoint (`/api/v2/sale/group/{groupId}`). */
  groupId?: string;
  login: string;
  controlKey: string;
  /** RSA public key (PEM) that verifies this merchant's v4 (RSA-SHA256) calls. */
  publicKeyPem?: string;
  /** Or the file holding it; read by createSandboxApp. */
  publicKeyFile?: string;
}

export interface CallbackOptions {
  /** Attempts per callback before giving up (default 6). */
  maxAttempts?: number;
  /** First retry delay; each retry doubles it (default 1000 ms). */
  baseDelayMs?: number;
  /** Per-attempt timeout (default 5000 ms). */
  timeoutMs?: number;
}

export interface SandboxOptions {
  /** Merchant endpoints. None: dev mode makes the dev merchant (endpoint 1111). */
  merchants?: MerchantOptions[];
  /** Enables `POST /sandbox/reset`, `POST /sandbox/faults` and the `X-Sandbox-Fault` header. */
  devMode?: boolean;
  /** A database to use (not closed by the sandbox); else one is opened from url / dataDir. */
  database?: Database;
  databaseUrl?: string;
  /** PGlite folder (and where the dev merchant's key pair is kept); absent: in memory. */
  dataDir?: string;
  /** Path prefix of every gateway path (default `/paynet`, like the real service). */
  basePath?: string;
  /** The public origin (`http://127.0.0.1:4000`); absent: taken from each request's Host. */
  publicOrigin?: string;
  /**
   * Exact origins whose pages may frame the ACS pages and hosted forms (CSP `frame-ancestors`):
   * the backend's and the merchant pages'. Absent: the sandbox itself and pages served from this
   * machine (`http://localhost:*`, `http://127.0.0.1:*`, `http://[::1]:*`), never another site.
   */
  frameAncestors?: string[];
  clock?: Clock;
  /** Delay before an asynchronous step completes (default 100 ms). */
  processingDelayMs?: number;
  /** How long `unknown-then-approved` stays unknown (default 3 x processingDelayMs). */
  unknownDurationMs?: number;
  /** A 3DS step not completed in this time ends declined (default 10 minutes). */
  threeDsTimeoutMs?: number;
  /** When `3ds2-challenge-late-approval`'s unanswered challenge is approved (default 20 s). */
  lateApprovalMs?: number;
  callbacks?: CallbackOptions;
  /** Fault switches per endpoint id (`*` for all endpoints). Off by default. */
  faults?: Record<string, FaultSettings>;
  /** For the share-of-calls faults; injectable for deterministic tests. */
  random?: () => number;
  /** Outgoing HTTP for callbacks (http/callback-get.ts by default; the global fetch fits too). */
  fetch?: CallbackFetch;
  logger?: pino.Logger;
}

export class SandboxConfigError extends PayCheckoutError {
  constructor(message: string) {
    super('sandbox-config', message);
  }
}

const TRUE = new Set(['1', 'true', 'yes', 'on']);
const FALSE = new Set(['0', 'false', 'no', 'off', '']);

/**
 * ENDPOINT_ID, MERCHANT_LOGIN, MERCHANT_CONTROL_KEY, MERCHANT_PUBLIC_KEY_FILE, DATABASE_URL,
 * DATA_DIR, SANDBOX_DEV_MODE -> options. The three merchant values come together or not at all
 * (none: the dev merchant). Throws SandboxConfigError naming the variable.
 */
export function sandboxOptionsFromEnv(env: Record<string, string | undefined>): SandboxOptions {
  const get = (name: string) => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
  const options: SandboxOptions = {};
  const endpointId = get('ENDPOINT_ID');
  const login = get('MERCHANT_LOGIN');
  const controlKey = get('MERCHANT_CONTROL_KEY');
  const publicKeyFile = get('MERCHANT_PUBLIC_KEY_FILE');
  if (endpointId || login || controlKey || publicKeyFile) {
    const missing = [
      ['ENDPOINT_ID', endpointId],
      ['MERCHANT_LOGIN', login],
      ['MERCHANT_CONTROL_KEY', controlKey],
    ].find(([, value]) => !value);
    if (missing) {
      throw new SandboxConfigError(
        `${missing[0]} is missing: give ENDPOINT_ID, MERCHANT_LOGIN and MERCHANT_CONTROL_KEY together, or none for the dev merchant`,
      );
    }
    if (!/^\d{1,18}$/.test(endpointId!)) {
      throw new SandboxConfigError('ENDPOINT_ID must be a positive integer');
    }
    options.merchants = [
      {
        endpointId: endpointId!,
        login: login!,
        controlKey: controlKey!,
        ...(publicKeyFile ? { publicKeyFile } : {}),
      },
    ];
  }
  const databaseUrl = get('DATABASE_URL');
  if (databaseUrl) {
    if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
      throw new SandboxConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL');
    }
    options.databaseUrl = databaseUrl;
  }
  const dataDir = get('DATA_DIR');
  if (dataDir) options.dataDir = dataDir;
  const devMode = env.SANDBOX_DEV_MODE?.trim().toLowerCase();
  if (devMode !== undefined) {
    if (TRUE.has(devMode)) options.devMode = true;
    else if (FALSE.has(devMode)) options.devMode = false;
    else throw new SandboxConfigError('SANDBOX_DEV_MODE must be true or false');
  }
  return options;
}
