/**
 * Structured JSON logs (pino). Redaction is the logger's job, not each call site's: a `log`
 * formatter walks every record, censoring secret-named keys at any depth (so no list of pino
 * `redact` paths is needed) and any run of 12-19 digits that could be a card number, wherever it
 * hides (messages, errors, URLs). A shopper's contact and address (an e-mail, a phone, an address
 * line...) is masked by its key (personal-data.ts), as the gateway history masks a phone.
 */
import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from '../config.js';
import { isPersonalFieldName, maskPersonal } from '../personal-data.js';
import { isSensitiveFieldName, replacePanLike } from '../sensitive-fields.js';

export type { Logger } from 'pino';

const CENSOR = '[redacted]';

/**
 * Keys censored in logs besides the shared card-data and secret names: cookies, whole card objects
 * and their parts as the widget names them, and 3-D Secure messages (compared lowercased).
 */
const LOG_ONLY_KEYS = new Set([
  'cookie',
  'set-cookie',
  'card',
  'number',
  'holder',
  'pares',
  'cres',
  'creq',
  'pareq',
]);

function isSecretKey(key: string): boolean {
  return LOG_ONLY_KEYS.has(key.toLowerCase()) || isSensitiveFieldName(key);
}

export function scrubText(text: string): string {
  return replacePanLike(text, () => CENSOR);
}

/** A deep copy with secrets censored; cycles and depth are bounded. */
export function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 8) return '[deep]';
  if (value instanceof Error) return scrubError(value);
  if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (isSecretKey(key)) out[key] = CENSOR;
    else if (typeof item === 'string' && isPersonalFieldName(key))
      out[key] = scrubText(maskPersonal(key, item));
    else out[key] = scrub(item, depth + 1);
  }
  return out;
}

/** `err` / `error` may be anything a call site had at hand: only real errors get the Error shape. */
function serializeError(value: unknown): unknown {
  return value instanceof Error ? scrubError(value) : scrub(value);
}

function scrubError(error: Error): Record<string, unknown> {
  const code = (error as { code?: unknown }).code;
  return {
    type: error.name,
    message: scrubText(error.message),
    ...(typeof code === 'string' ? { code } : {}),
    stack: error.stack ? scrubText(error.stack) : undefined,
  };
}

export interface LoggerOptions {
  level: LogLevel;
  /** Where lines go (tests capture them); stdout by default. */
  destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level,
      base: { service: 'pay-checkout' },
      serializers: { err: serializeError, error: serializeError },
      formatters: {
        log: (record) => scrub(record) as Record<string, unknown>,
      },
      hooks: {
        // The message string itself is not part of `record`: scrub it here.
        logMethod(args, method) {
          const scrubbed = args.map((arg) => (typeof arg === 'string' ? scrubText(arg) : arg));
          method.apply(this, scrubbed as Parameters<typeof method>);
        },
      },
    },
    options.destination ?? pino.destination({ sync: false }),
  );
}
