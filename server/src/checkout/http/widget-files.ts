/**
 * The element's CDN folder (dist/cdn: the file, its languages, integrity.json), served by the
 * backend so that a merchant can pin it (PCI DSS 6.4.3):
 *
 *   GET /v<version>/<file>  immutable: `Cache-Control: public, max-age=31536000, immutable`;
 *                           only the version the folder was built as (integrity.json says which)
 *   GET /<file>             the same bytes for development, cached 5 minutes, never for pinning
 *
 * Every answer carries `Access-Control-Allow-Origin: *`: a `<script crossorigin>` and the
 * element's `fetch(url, { integrity })` of its languages need CORS for the browser to check a
 * hash. Only the files integrity.json lists are served, and only when their bytes still have the
 * listed hash: a folder changed after its build answers 503 rather than a file no hash vouches for.
 * The folder is read again whenever integrity.json changes (a rebuild during development).
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type Request, type Response, Router } from 'express';
import { sri } from '../../sri.js';
import { HttpError } from '../errors.js';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const SHORT_CACHE = 'public, max-age=300';

interface Folder {
  version: string;
  files: Map<string, Buffer>;
}

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

/** integrity.json's files, read and checked; the Error says what is wrong. */
async function readFolder(dir: string): Promise<Folder | Error> {
  try {
    const manifest = JSON.parse(await readFile(join(dir, 'integrity.json'), 'utf8')) as {
      version: string;
      files: Record<string, string>;
    };
    const files = new Map<string, Buffer>([
      ['integrity.json', await readFile(join(dir, 'integrity.json'))],
    ]);
    for (const [path, hash] of Object.entries(manifest.files)) {
      const body = await readFile(join(dir, path));
      if (sri(body) !== hash) return new Error(`${path} does not match integrity.json`);
      files.set(path, body);
    }
    return { version: manifest.version, files };
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** `dir`: the CDN folder; undefined when there is none (every file then answers 503). */
export function widgetFilesRouter(dir: string | undefined): Router {
  let cached: { mtimeMs: number; folder: Promise<Folder | Error> } | undefined;
  const folder = async (): Promise<Folder | Error> => {
    if (dir === undefined) return new Error('this backend has no widget folder');
    const mtimeMs = await stat(join(dir, 'integrity.json')).then(
      (s) => s.mtimeMs,
      () => -1,
    );
    if (mtimeMs < 0) return new Error('the widget is not built (npm run build)');
    if (cached?.mtimeMs !== mtimeMs) cached = { mtimeMs, folder: readFolder(dir) };
    return cached.folder;
  };

  const send = async (res: Response, path: string, cache: string, version?: string) => {
    const found = await folder();
    if (found instanceof Error)
      throw new HttpError(
        503,
        'unavailable',
        `The widget's files cannot be served: ${found.message}`,
      );
    if (version !== undefined && version !== found.version)
      throw new HttpError(
        404,
        'not-found',
        `Version ${version} is not here; this backend serves ${found.version}`,
      );
    const body = found.files.get(path);
    if (!body) throw new HttpError(404, 'not-found', `No widget file ${path}`);
    res
      .set('Cache-Control', cache)
      .set('Access-Control-Allow-Origin', '*')
      .type(TYPES[path.slice(path.lastIndexOf('.') + 1)] ?? 'application/octet-stream')
      .send(body);
  };

  const router = Router();
  const FILE =
    /^\/(?:v(\d+\.\d+\.\d+[\w.+-]*)\/)?(pay-checkout\.js|integrity\.json|locales\/[a-z]+\.json)$/;
  router.get(FILE, async (req: Request, res: Response) => {
    // The route matched FILE: a path, and a version unless it is the development path.
    const [, version, path = ''] = FILE.exec(req.path) ?? [];
    await send(res, path, version === undefined ? SHORT_CACHE : IMMUTABLE, version);
  });
  return router;
}
