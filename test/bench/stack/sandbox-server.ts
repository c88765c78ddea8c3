/**
 * The sandbox gateway in its own process, on its own database (PGlite folder or a fresh
 * PostgreSQL schema), as `npm run sandbox` would run it. Started by stack/start.ts.
 */
import express from 'express';
import { createSandboxApp } from '../../../server/src/sandbox/index.js';
import { openDatabase } from '../../../server/src/store/index.js';
import { closeServer, listenLoopback } from './listen.js';
import { mountMemoryRoute, onStop } from './memory-route.js';
import { mountProfileRoute } from './profile-route.js';
import { announce, readInput, type SandboxInput } from './protocol.js';

const input = readInput<SandboxInput>();
const db = await openDatabase({
  url: input.db.url,
  schema: input.db.schema,
  dataDir: input.db.url ? undefined : `${input.db.dataDir}/sandbox-db`,
});
const { server, url } = await listenLoopback();
const sandbox = await createSandboxApp({
  database: db,
  dataDir: input.db.dataDir,
  publicOrigin: url,
  processingDelayMs: input.processingDelayMs,
});
const dev = sandbox.devCredentials;
if (!dev) throw new Error('the sandbox made no dev merchant');

const root = express();
root.disable('x-powered-by');
mountMemoryRoute(root);
mountProfileRoute(root);
root.use(sandbox.app);
server.on('request', root);

onStop(async () => {
  await closeServer(server);
  await sandbox.close();
  await db.close();
});
announce({
  ready: 'sandbox',
  url,
  gatewayUrl: `${url}${sandbox.basePath}`,
  endpointId: dev.endpointId,
  login: dev.login,
  controlKey: dev.controlKey,
  privateKeyFile: dev.privateKeyFile,
});
