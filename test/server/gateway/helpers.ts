/** A tiny gateway stand-in on 127.0.0.1 that records what it receives. */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  rawBody: Buffer;
  /** Decoded form fields, in order. */
  fields: [string, string][];
}

export type Reply =
  | { status?: number; contentType?: string; headers?: Record<string, string>; body: string }
  | 'hang';

export interface TestGateway {
  /** e.g. http://127.0.0.1:41234/paynet */
  url: string;
  origin: string;
  seen: SeenRequest[];
  reply: (request: SeenRequest) => Reply;
  close(): Promise<void>;
}

export const JSON_TYPE = 'application/vnd.pay+json';

export async function startGateway(
  reply: (request: SeenRequest) => Reply = () => json({ type: 'async-response' }),
): Promise<TestGateway> {
  const seen: SeenRequest[] = [];
  const state = { reply };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      const request: SeenRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawBody,
        fields: [...new URLSearchParams(rawBody.toString('utf8'))],
      };
      seen.push(request);
      const answer = state.reply(request);
      if (answer === 'hang') return;
      res.writeHead(answer.status ?? 200, {
        'Content-Type': answer.contentType ?? JSON_TYPE,
        ...answer.headers,
      });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const gateway: TestGateway = {
    url: `${origin}/paynet`,
    origin,
    seen,
    get reply() {
      return state.reply;
    },
    set reply(next) {
      state.reply = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return gateway;
}

export function json(body: unknown, status = 200): Reply {
  return { status, body: JSON.stringify(body) };
}

/** Independent oracle for control values: sha1 hex of the plain concatenation. */
export function sha1(text: string): string {
  return createHash('sha1').update(text, 'utf8').digest('hex');
}

export function fieldsOf(request: SeenRequest | undefined): Record<string, string> {
  if (!request) throw new Error('no request seen');
  return Object.fromEntries(request.fields);
}

export const CREDENTIALS = {
  endpointId: '1111',
  login: 'merchantlogin',
  controlKey: 'B17F59B4-A7DC-41B4-8FF9-37D986B43D20',
} as const;

export const CARD = {
  card_printed_name: 'Zoë Smith',
  credit_card_number: '4444444444444448',
  expire_month: '12',
  expire_year: '2031',
  cvv2: '987',
} as const;

export const CUSTOMER = {
  address1: '1 Main St',
  city: 'Zürich',
  zip_code: '8001',
  country: 'CH',
  phone: '+41441234567',
  email: 'john.smith@gmail.com',
  ipaddress: '203.0.113.7',
} as const;

export const SALE = {
  client_orderid: 'E1',
  order_desc: 'Order E1',
  amount: '10.00',
  currency: 'EUR',
  redirect_url: 'https://shop.example/return/e1',
  ...CUSTOMER,
  ...CARD,
} as const;
