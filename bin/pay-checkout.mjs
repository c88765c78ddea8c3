#!/usr/bin/env node
// `npx pay-checkout server | sandbox | start` (and `npm run server`): the backend as compiled
// JavaScript on plain Node (`npm run build` makes dist/node; the published package ships it).
import { existsSync } from 'node:fs';

const main = new URL('../dist/node/server/src/main.js', import.meta.url);
if (!existsSync(main)) {
  console.error('Start-up failed: dist/node is missing: run `npm run build` first');
  process.exit(1);
}
await (await import(main.href)).main();
