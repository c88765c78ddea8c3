/**
 * The rule for the URLs the gateway names (ACS, 3DS Method, its own pages, hosted forms), as the
 * backend applies it: contract/safe-url.ts, with http: to this machine only while the configured
 * gateway is itself there (the sandbox). A real gateway's pages are https; an http: URL to
 * loopback in its answer would point the shopper's browser at whatever runs on their own machine.
 */
import { isSafeUrl } from '../../../../contract/safe-url.js';
import { type CheckoutConfig, isLoopbackHost } from '../../config.js';

/** The configured gateway is http: on this machine (the embedded or a local sandbox). */
export function gatewayOnLoopback(config: Pick<CheckoutConfig, 'gateway'>): boolean {
  const url = new URL(config.gateway.url);
  return url.protocol === 'http:' && isLoopbackHost(url.hostname);
}

/** Whether the backend follows `url`, or hands it to the widget, under `config`. */
export function isBankUrl(config: Pick<CheckoutConfig, 'gateway'>, url: unknown): url is string {
  return isSafeUrl(url, gatewayOnLoopback(config));
}

/** The same rule as CSP sources (CSP cannot name [::1]). */
export function bankSources(config: Pick<CheckoutConfig, 'gateway'>): string {
  return gatewayOnLoopback(config) ? 'https: http://127.0.0.1:* http://localhost:*' : 'https:';
}
