/**
 * The configuration object of `createPayCheckout` (the backend as a library), validated with the
 * same rules as the environment variables in config.ts (which is one way to build this object).
 * A missing or malformed field throws a ConfigError naming it by its path, `gateway.endpointId`.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import {
  type CheckoutConfig,
  ConfigError,
  DEFAULT_EVENT_RETENTION_DAYS,
  endpointId,
  hexColor,
  httpUrl,
  LOG_LEVELS,
  merchantName,
  originList,
  type PaymentLinkPageConfig,
  PROXY_TOKEN,
  publicUrlSchema,
  requireHttps,
  retentionDays,
  secret,
} from '../config.js';
import type { DatabaseOptions } from '../store/index.js';

const optionsSchema = z
  .object({
    gateway: z
      .object({
        url: httpUrl,
        endpointId,
        login: z.string().min(1, 'is required'),
        controlKey: z.string().min(1, 'is required'),
        privateKeyFile: z.string().min(1).optional(),
        privateKeyPem: z
          .string()
          .regex(/-----BEGIN [A-Z ]*PRIVATE KEY-----/, 'must be a PEM private key')
          .optional(),
      })
      .strict()
      .refine((g) => !(g.privateKeyFile && g.privateKeyPem), {
        message: 'give privateKeyFile or privateKeyPem, not both',
        path: ['privateKeyPem'],
      }),
    merchantApiKey: secret(16),
    jwtSecret: secret(32),
    publicUrl: publicUrlSchema,
    allowedOrigins: originList.optional(),
    webhook: z
      .object({ url: httpUrl, secret: secret(16) })
      .strict()
      .optional(),
    eventRetentionDays: retentionDays.optional(),
    database: z
      .object({
        url: z
          .string()
          .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
          .optional(),
        schema: z.string().optional(),
        dataDir: z.string().min(1).optional(),
        memory: z.literal(true).optional(),
      })
      .strict()
      .refine((d) => [d.url, d.dataDir, d.memory].filter(Boolean).length === 1, {
        message: 'give exactly one of url (PostgreSQL), dataDir (PGlite) or memory: true',
      }),
    logLevel: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).optional(),
    trustProxy: z
      .union(
        [
          z.literal(false),
          z.number().int().min(0).max(99),
          z.array(z.string().regex(PROXY_TOKEN)).min(1),
        ],
        {
          error:
            'must be false, a hop count, or proxy addresses, subnets or names (loopback, linklocal, uniquelocal)',
        },
      )
      .optional(),
    testMode: z.boolean().optional(),
    metricsToken: secret(16).optional(),
    paymentLinkPage: z
      .object({
        merchantName: merchantName.optional(),
        logoUrl: httpUrl.optional(),
        colors: z
          .object({
            primary: hexColor.optional(),
            background: hexColor.optional(),
            text: hexColor.optional(),
          })
          .strict()
          .optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

/** What a merchant passes to `createPayCheckout` (docs/backend.md#use-it-as-a-library). */
export interface PayCheckoutOptions {
  /** The gateway account (GATEWAY_URL, ENDPOINT_ID, MERCHANT_LOGIN, MERCHANT_CONTROL_KEY). */
  gateway: {
    /** https: (http: only for this machine), e.g. `https://gate.example.com/paynet`. */
    url: string;
    endpointId: string;
    login: string;
    controlKey: string;
    /** RSA key for the v4 operations, as a file (relative to the working folder) or as PEM. */
    privateKeyFile?: string;
    privateKeyPem?: string;
  };
  /** Bearer key of the merchant API (at least 16 characters). */
  merchantApiKey: string;
  /** Signs the widget's session tokens (at least 32 characters). */
  jwtSecret: string;
  /**
   * Where shoppers and the gateway reach this backend, mount path included:
   * `https://shop.example/pay` for `app.use('/pay', payCheckout.router)`.
   */
  publicUrl: string;
  /** Origins of the pages that host the widget; default: the origin of `publicUrl`. */
  allowedOrigins?: string[];
  /** Where order events are POSTed, signed with `secret` (see `verifyWebhook`). */
  webhook?: { url: string; secret: string };
  /**
   * Days events are kept for `GET /v1/events`, with or without `webhook` (1 to 3650, default
   * 30); older ones are purged, except one still being retried.
   */
  eventRetentionDays?: number;
  /** Where orders live: PostgreSQL, a PGlite folder, or memory (tests only: lost on exit). */
  database: { url: string; schema?: string } | { dataDir: string } | { memory: true };
  logLevel?: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Proxies allowed to name the client's IP: false (default), a hop count, or addresses. */
  trustProxy?: false | number | string[];
  /**
   * The gateway is a sandbox (no real money moves): orders and webhooks say `livemode: false`,
   * `/readyz` says `"gateway":"sandbox"`, and the widget shows a "Test mode" badge.
   */
  testMode?: boolean;
  /** Serves `GET /metrics` (Prometheus text) to `Authorization: Bearer <metricsToken>`. */
  metricsToken?: string;
  /** The payment link page's look: the merchant's name, a logo URL, hex colours. */
  paymentLinkPage?: PaymentLinkPageConfig;
}

// The interface above is what merchants read; the schema is what runs. Both must accept the same.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _schemaMatches: Same<
  Omit<z.input<typeof optionsSchema>, 'database'>,
  Omit<PayCheckoutOptions, 'database'>
> = true;
void _schemaMatches;

/** The validated options: the checkout's configuration, its store, and the key's PEM if given. */
export interface ResolvedOptions {
  config: CheckoutConfig;
  database: DatabaseOptions;
  privateKeyPem?: string | undefined;
}

function fieldName(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String);
  // An unknown key is reported on its parent: name the key itself.
  if (issue.code === 'unrecognized_keys') path.push(issue.keys[0] ?? '');
  return path.join('.') || 'options';
}

/**
 * Validates `input` (throws a ConfigError naming the first bad field). `cwd` resolves a relative
 * `gateway.privateKeyFile` and `database.dataDir`.
 */
export function resolveOptions(input: unknown, cwd: string = process.cwd()): ResolvedOptions {
  const result = optionsSchema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0] as z.core.$ZodIssue;
    const given = issue.path.reduce<unknown>(
      (at, key) => (at as Record<PropertyKey, unknown> | undefined)?.[key],
      input,
    );
    let message = issue.message.replace(/^Invalid.*$/, 'is malformed');
    if (issue.code === 'unrecognized_keys') message = 'is not an option';
    else if (given === undefined) message = 'is required';
    throw new ConfigError(fieldName(issue), message);
  }
  const o = result.data;
  // Card data and the callback URL travel over these: only TLS, except to this machine.
  requireHttps('gateway.url', o.gateway.url, '');
  requireHttps('publicUrl', o.publicUrl, '');
  // Events carry the customer's order data and the masked card: private in transit too.
  if (o.webhook) requireHttps('webhook.url', o.webhook.url, '');
  const privateKeyFile = o.gateway.privateKeyFile && resolve(cwd, o.gateway.privateKeyFile);
  if (privateKeyFile && !existsSync(privateKeyFile))
    throw new ConfigError('gateway.privateKeyFile', `no file at ${privateKeyFile}`);
  const { privateKeyPem, ...gateway } = o.gateway;
  const database: DatabaseOptions = o.database.url
    ? { url: o.database.url, schema: o.database.schema }
    : { dataDir: o.database.dataDir && resolve(cwd, o.database.dataDir) };
  return {
    config: {
      gateway: { ...gateway, privateKeyFile },
      merchantApiKey: o.merchantApiKey,
      jwtSecret: o.jwtSecret,
      publicUrl: o.publicUrl,
      // The shop's pages are on the backend's own origin by default (mounted in the shop's app).
      allowedOrigins: o.allowedOrigins ?? [new URL(o.publicUrl).origin],
      webhook: o.webhook,
      eventRetentionDays: o.eventRetentionDays ?? DEFAULT_EVENT_RETENTION_DAYS,
      logLevel: o.logLevel ?? 'info',
      trustProxy: o.trustProxy ?? false,
      testMode: o.testMode ?? false,
      metricsToken: o.metricsToken,
      paymentLinkPage: o.paymentLinkPage,
    },
    database,
    privateKeyPem,
  };
}
