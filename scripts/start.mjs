#!/usr/bin/env node
// `npm start`: server/src/main.ts from the sources, as one bundled ES
// module instead of through tsx. tsx transpiles and resolves each of about 200 modules on every
// start, in a loader thread of its own that stays resident; a bundle of our own code (packages stay
// imports of node_modules) loads in a fraction of that and holds about 70 MB less
// (docs/pglite-options.md, "Where the start-up time went").
//
// The bundle is made with the esbuild that tsx brings, kept in node_modules/.cache/pay-checkout,
// and made again whenever a source changes: its name is a fingerprint of every source file's path,
// size and modification time (a few ms to compute), of this script and of esbuild's version. A
// clone whose tsx has no esbuild runs the sources through tsx as before.
//   node [--liftoff-only] scripts/start.mjs start|server|sandbox [--fresh]
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = join(root, 'server/src/main.ts');
/** What the bundle is made of: the backend, the contract it shares with the widget, the demo's server. */
const SOURCES = ['server/src', 'contract', 'demo/server.ts'];

/** Every source file and folder as `path:size:mtime` (a folder's mtime moves when a file goes). */
function listing(path, out) {
  const stats = statSync(path);
  out.push(`${relative(root, path)}:${stats.size}:${stats.mtimeMs}`);
  if (stats.isDirectory()) for (const name of readdirSync(path)) listing(join(path, name), out);
  return out;
}

async function loadEsbuild() {
  try {
    const tsx = createRequire(join(root, 'package.json')).resolve('tsx/package.json');
    return createRequire(tsx)('esbuild');
  } catch {
    return undefined;
  }
}

/** The bundle's folder for these sources, made when missing. */
async function bundle(esbuild) {
  const lines = SOURCES.flatMap((source) => listing(join(root, source), []));
  const fingerprint = createHash('sha256')
    .update(`${esbuild.version}\n${readFileSync(fileURLToPath(import.meta.url))}\n`)
    .update(lines.join('\n'))
    .digest('hex')
    .slice(0, 16);
  // One cache per clone (a node_modules may be shared by several work trees).
  const clone = createHash('sha256').update(root).digest('hex').slice(0, 12);
  const cache = join(root, 'node_modules', '.cache', 'pay-checkout', `start-${clone}`);
  const folder = join(cache, fingerprint);
  if (existsSync(join(folder, 'main.js'))) return folder;

  const scratch = `${folder}.${process.pid}`;
  const { metafile } = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { main: ENTRY },
    outdir: scratch,
    bundle: true,
    // Dynamic imports stay lazy: main.ts begins a new database's initialisation before the app's
    // code is loaded, and PGlite's code is loaded only when an embedded database opens.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'error',
    plugins: [sourceUrls],
    metafile: true,
  });
  // A source outside SOURCES would not make a new bundle when it changes.
  const unwatched = Object.keys(metafile.inputs).filter(
    (input) => !SOURCES.some((source) => input === source || input.startsWith(`${source}/`)),
  );
  if (unwatched.length > 0)
    console.warn(
      `scripts/start.mjs: add to SOURCES, else edits go unseen: ${unwatched.join(', ')}`,
    );
  try {
    renameSync(scratch, folder);
  } catch {
    // Another start made the same bundle meanwhile: theirs is as good.
    rmSync(scratch, { recursive: true, force: true });
  }
  // Older bundles of this clone are never read again.
  for (const name of readdirSync(cache)) {
    if (name !== fingerprint && !name.includes('.'))
      rmSync(join(cache, name), { recursive: true, force: true });
  }
  return folder;
}

/**
 * `import.meta.url` in a source names that source, not the bundle: main.ts, commands.ts and the
 * demo find the project's files (dist/cdn, demo/public) relative to themselves.
 */
const sourceUrls = {
  name: 'source-urls',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      return {
        contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
        loader: 'ts',
      };
    });
  },
};

const esbuild = await loadEsbuild();
let main;
if (esbuild) {
  const folder = await bundle(esbuild);
  // Stack traces name the sources (server/src/…), as they did through tsx.
  process.setSourceMapsEnabled(true);
  ({ main } = await import(pathToFileURL(join(folder, 'main.js')).href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import(pathToFileURL(ENTRY).href));
}
await main();
