/** The start-up text main.ts prints: URLs, dev credentials, test cards. */
import type { DevCredentials, Merchant } from './merchants.js';
import { TEST_CARDS } from './test-cards.js';

export interface DescribeInput {
  /** `http://127.0.0.1:4000` (no path). */
  origin: string;
  basePath?: string;
  merchants: readonly Merchant[];
  devCredentials?: DevCredentials | undefined;
  devMode?: boolean;
}

export function describeSandbox(input: DescribeInput): string {
  const base = `${input.origin}${input.basePath ?? '/paynet'}`;
  const lines = [
    `Sandbox gateway: ${base}`,
    `  sale:        POST ${base}/api/v2/sale/{endpointId}`,
    `  test cards:  GET  ${input.origin}/sandbox/test-cards`,
  ];
  if (input.devMode) {
    lines.push(
      `  dev mode:    POST ${input.origin}/sandbox/reset, POST ${input.origin}/sandbox/faults`,
    );
  }
  const dev = input.devCredentials;
  if (dev) {
    lines.push(
      '',
      'Dev merchant (use these in the backend):',
      `  GATEWAY_URL=${base}`,
      `  ENDPOINT_ID=${dev.endpointId}            (endpoint group ${dev.groupId})`,
      `  MERCHANT_LOGIN=${dev.login}`,
      `  MERCHANT_CONTROL_KEY=${dev.controlKey}`,
      `  MERCHANT_PRIVATE_KEY_FILE=${dev.privateKeyFile}`,
    );
  } else {
    for (const m of input.merchants) {
      lines.push(
        `  merchant endpoint ${m.endpointId} login ${m.login}${m.publicKey ? ' (RSA key loaded)' : ''}`,
      );
    }
  }
  lines.push('', 'Test cards (any name, expiry 12/2030):');
  lines.push('  scenario                   PAN               CVV  one-time code');
  for (const card of TEST_CARDS) {
    lines.push(
      `  ${card.scenario.padEnd(26)} ${card.pan.padEnd(17)} ${card.cvv.padEnd(4)} ${card.otp ?? '-'}`,
    );
  }
  lines.push(
    '  Other Luhn-valid cards: CVV 123 approved, 321 3DS (code "hint"), 217 unknown, 116 no funds, other declined.',
  );
  return lines.join('\n');
}
