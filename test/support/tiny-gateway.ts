/**
 * The plumbing of a gateway written in a test from the spec's words alone: a loopback HTTP server
 * that reads each form body, names the operation by its path (`/paynet/api/v2/<operation>/...`),
 * and answers in the gateway's JSON type. The rules (controls, ledgers, what to answer) are the
 * test's own. Every refusal is recorded, so that a suite can end by asserting the backend sent
 * nothing the spec would refuse.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The spec's control digest: SHA-1 of the concatenated fields, in lower-case hex. */
export const sha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex');

export interface TinyReply {
  answer(body: Record<string, string>, status?: number): void;
  /** A 400 validation-error, recorded in `refused`. */
  refuse(what: string): void;
}

export type TinyHandler = (
  operation: string,
  data: Record<string, string>,
  reply: TinyReply,
  req: IncomingMessage,
) => void;

export interface TinyGateway {
  /** The base URL, with the gateway's path prefix: give it to the backend as its gateway. */
  url: string;
  refused: string[];
  close(): Promise<void>;
}

export async function startTinyGateway(handle: TinyHandler): Promise<TinyGateway> {
  const refused: string[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => {
      text += chunk;
    });
    req.on('end', () => {
      const data = Object.fromEntries(new URLSearchParams(text)) as Record<string, string>;
      const [, operation = ''] = /^\/paynet\/api\/v[24]\/([a-z-]+)\//.exec(req.url ?? '') ?? [];
      const answer = (body: Record<string, string>, status = 200) => {
        res.writeHead(status, { 'content-type': 'application/vnd.pay+json' });
        res.end(JSON.stringify(body));
      };
      handle(
        operation,
        data,
        {
          answer,
          refuse(what) {
            refused.push(what);
            answer({ type: 'validation-error', 'error-message': what, 'error-code': '1' }, 400);
          },
        },
        req,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/paynet`,
    refused,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
