/** The embedded engine's start: a new folder initialised beside it, then opened with our settings. */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  emptyClusterTarball,
  PGLITE_SETTINGS,
  startPGlite,
  useMemoryTemplate,
} from '../../../server/src/store/engine/pglite-engine.js';
import { initialiseDataDir } from '../../../server/src/store/engine/pglite-folder.js';

describe('the embedded engine', () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'pglite-engine-'));
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  test('a missing folder becomes a database, once for concurrent callers', async () => {
    const dataDir = join(root, 'db');
    const initialising = initialiseDataDir(dataDir);
    // A second caller meanwhile (the store opening while main.ts's early start runs) joins it.
    assert.equal(initialiseDataDir(`${dataDir}/`), initialising);
    await initialising;
    assert.ok((await stat(join(dataDir, 'PG_VERSION'))).isFile());
    // No scratch folder is left beside it.
    assert.deepEqual(await readdir(root), ['db']);
    // A second call finds the database and leaves it as it is.
    const before = (await stat(join(dataDir, 'PG_VERSION'))).mtimeMs;
    await initialiseDataDir(dataDir);
    assert.equal((await stat(join(dataDir, 'PG_VERSION'))).mtimeMs, before);
    // Opened with our settings, and the data is there on the next start.
    const first = await startPGlite(dataDir);
    try {
      const { rows } = await first.query<{ shared_buffers: string }>('show shared_buffers');
      assert.deepEqual(rows, [{ shared_buffers: PGLITE_SETTINGS.shared_buffers }]);
      await first.exec('create table kept (v int); insert into kept values (7)');
    } finally {
      await first.close();
    }
    const second = await startPGlite(dataDir);
    try {
      assert.deepEqual((await second.query('select v from kept')).rows, [{ v: 7 }]);
    } finally {
      await second.close();
    }
  });

  test('an empty folder (made by the caller, named with a trailing slash) becomes a database', async () => {
    const dataDir = join(root, 'empty');
    await mkdir(dataDir);
    await initialiseDataDir(`${dataDir}/`);
    assert.ok((await stat(join(dataDir, 'PG_VERSION'))).isFile());
    assert.equal((await readdir(dataDir)).filter((name) => name.includes('.init-')).length, 0);
    assert.deepEqual((await readdir(root)).sort(), ['db', 'empty']);
  });

  test('a child that fails leaves the folder to PGlite, and no scratch folder behind', async () => {
    const dataDir = join(root, 'child-fails', 'db');
    // Node refuses an unknown flag: the child exits at once.
    await initialiseDataDir(dataDir, ['--no-such-node-flag']);
    // The parent folder was made for the scratch folder, which is gone.
    assert.deepEqual(await readdir(join(root, 'child-fails')), []);
  });

  test('a folder holding other files is not touched', async () => {
    const dataDir = join(root, 'other');
    await mkdir(dataDir);
    await writeFile(join(dataDir, 'notes.txt'), 'mine');
    await initialiseDataDir(dataDir);
    assert.deepEqual(await readdir(dataDir), ['notes.txt']);
  });

  test('in memory, a start loads the template it is given instead of running initdb', async () => {
    // A template with a table in it: only a start that loaded it can see the table. Made from
    // the test run's own template (test/support/pglite-template.ts), not by another initdb.
    const maker = await startPGlite(undefined);
    await maker.exec('create table marker (v int); insert into marker values (42)');
    const marked = await maker.dumpDataDir('none');
    await maker.close();
    const previous = useMemoryTemplate(async () => marked);
    try {
      const loaded = await startPGlite(undefined);
      try {
        assert.deepEqual((await loaded.query('select v from marker')).rows, [{ v: 42 }]);
        const { rows } = await loaded.query<{ shared_buffers: string }>('show shared_buffers');
        assert.deepEqual(rows, [{ shared_buffers: PGLITE_SETTINGS.shared_buffers }]);
      } finally {
        await loaded.close();
      }
      // The empty cluster a test run hands over: started, it holds no table of ours.
      const empty = await emptyClusterTarball();
      useMemoryTemplate(async () => empty);
      const fresh = await startPGlite(undefined);
      try {
        const { rows } = await fresh.query<{ n: number }>(
          "select count(*)::int as n from pg_tables where schemaname = 'public'",
        );
        assert.deepEqual(rows, [{ n: 0 }]);
        // Only the database PGlite opens: the template databases were left out of the tarball.
        const databases = await fresh.query<{ datname: string }>('select datname from pg_database');
        assert.deepEqual(databases.rows, [{ datname: 'postgres' }]);
      } finally {
        await fresh.close();
      }
    } finally {
      useMemoryTemplate(previous);
    }
  });
});
