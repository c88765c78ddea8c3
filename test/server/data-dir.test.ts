/** DATA_DIR is its owner's alone: created 0700, tightened on every start, refused when others may write it. */
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError } from '../../server/src/config.js';
import { secureDataDir } from '../../server/src/data-dir.js';

const mode = async (path: string) => (await stat(path)).mode & 0o777;

describe('secureDataDir', () => {
  it('creates a missing DATA_DIR 0700, and tightens what others may read to 0700 / 0600', async () => {
    const root = await mkdtemp(join(tmpdir(), 'data-dir-'));
    try {
      const dataDir = join(root, 'new', 'data');
      await secureDataDir(dataDir);
      assert.equal(await mode(dataDir), 0o700);
      // As PGlite left a folder before: folders 755, its WAL 666 (read by the group or anyone).
      await mkdir(join(dataDir, 'pglite', 'pg_wal'), { recursive: true });
      await chmod(join(dataDir, 'pglite'), 0o755);
      await chmod(join(dataDir, 'pglite', 'pg_wal'), 0o755);
      const wal = join(dataDir, 'pglite', 'pg_wal', '000000010000000000000001');
      await writeFile(wal, 'wal');
      await chmod(wal, 0o644);
      await secureDataDir(dataDir);
      assert.deepEqual(
        [
          await mode(join(dataDir, 'pglite')),
          await mode(join(dataDir, 'pglite', 'pg_wal')),
          await mode(wal),
        ],
        [0o700, 0o700, 0o600],
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('refuses a DATA_DIR, or a folder in it, that others may write to, naming it', async () => {
    const root = await mkdtemp(join(tmpdir(), 'data-dir-'));
    try {
      const dataDir = join(root, 'data');
      await mkdir(join(dataDir, 'pglite'), { recursive: true });
      await chmod(dataDir, 0o777);
      await assert.rejects(
        secureDataDir(dataDir),
        (error: unknown) =>
          error instanceof ConfigError &&
          error.variable === 'DATA_DIR' &&
          error.message.includes(`${dataDir} is writable by other users (mode 0777)`),
      );
      assert.equal(await mode(dataDir), 0o777, 'nothing changed');
      await chmod(dataDir, 0o700);
      await chmod(join(dataDir, 'pglite'), 0o775);
      await assert.rejects(
        secureDataDir(dataDir),
        /pglite is writable by other users \(mode 0775\)/,
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('judges a DATA_DIR that is a symbolic link, or a link in it, by the folder it points to', async () => {
    const root = await realpath(await mkdtemp(join(tmpdir(), 'data-dir-')));
    try {
      // DATA_DIR -> a folder anyone may write (as /var/lib/app -> /mnt/volume/app): refused.
      const volume = join(root, 'volume');
      await mkdir(volume, { mode: 0o700 });
      await chmod(volume, 0o777);
      const dataDir = join(root, 'data');
      await symlink(volume, dataDir);
      await assert.rejects(
        secureDataDir(dataDir),
        (error: unknown) =>
          error instanceof ConfigError &&
          error.message.includes(`${dataDir} (${volume}) is writable by other users (mode 0777)`),
      );
      assert.equal(await mode(volume), 0o777, 'nothing changed');
      // A link inside DATA_DIR to such a folder: refused too; once it is the owner's, tightened.
      await chmod(volume, 0o755);
      const inner = join(root, 'pglite-volume');
      await mkdir(inner);
      await chmod(inner, 0o777);
      await symlink(inner, join(volume, 'pglite'));
      await assert.rejects(
        secureDataDir(dataDir),
        /pglite \(.*pglite-volume\) is writable by other users/,
      );
      await chmod(inner, 0o755);
      await writeFile(join(inner, 'PG_VERSION'), '17');
      await chmod(join(inner, 'PG_VERSION'), 0o644);
      await secureDataDir(dataDir);
      assert.deepEqual(
        [await mode(volume), await mode(inner), await mode(join(inner, 'PG_VERSION'))],
        [0o700, 0o700, 0o600],
      );
      // A loop of links ends.
      await symlink(volume, join(inner, 'loop'));
      await secureDataDir(dataDir);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
