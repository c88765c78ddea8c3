/**
 * PGlite's parameterised queries run as named prepared statements
 * (store/engine/pglite-prepared.ts): the same answers, errors and transaction behaviour as
 * PGlite's own query(), through openDatabase.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Database, openDatabase } from '../../../server/src/store/index.js';

describe('PGlite prepared statements', () => {
  let db: Database;
  before(async () => {
    db = await openDatabase({});
    await db.query(
      'create table t (id text primary key, n int not null, tags text[], doc jsonb, at timestamptz)',
    );
  });
  after(() => db.close());

  test('one SQL text, many parameter sets: each call answers its own rows', async () => {
    const insert = 'insert into t (id, n, tags, doc, at) values ($1, $2, $3, $4::jsonb, $5)';
    await db.query(insert, ['a', 1, ['x', 'y'], JSON.stringify({ k: 1 }), new Date(0)]);
    await db.query(insert, ['b', 2, [], null, null]);
    await db.query(insert, ['c', 3, ['z'], JSON.stringify({ k: [3] }), null]);
    const select = 'select id, n, tags, doc, at from t where id = $1';
    assert.deepEqual((await db.query(select, ['a'])).rows, [
      { id: 'a', n: 1, tags: ['x', 'y'], doc: { k: 1 }, at: new Date(0) },
    ]);
    assert.deepEqual((await db.query(select, ['c'])).rows, [
      { id: 'c', n: 3, tags: ['z'], doc: { k: [3] }, at: null },
    ]);
    assert.deepEqual((await db.query(select, ['none'])).rows, []);
    const some = await db.query('select id from t where id = any($1::text[]) order by id', [
      ['a', 'b'],
    ]);
    assert.deepEqual(some.rows, [{ id: 'a' }, { id: 'b' }]);
  });

  test('text beyond ASCII, empty strings and NULLs go in and come back as they were', async () => {
    const insert =
      'insert into t (id, n, tags, doc) values ($1, $2, $3, $4::jsonb) returning id, doc';
    const doc = { name: 'Zoë Ünal — 東京 🚀', empty: '' };
    const { rows, rowCount } = await db.query(insert, ['ü-1', 7, ['', 'ß'], JSON.stringify(doc)]);
    assert.equal(rowCount, 1);
    assert.deepEqual(rows, [{ id: 'ü-1', doc }]);
    const read = await db.query('select id, tags, at, $2::text as nothing from t where id = $1', [
      'ü-1',
      null,
    ]);
    assert.deepEqual(read.rows, [{ id: 'ü-1', tags: ['', 'ß'], at: null, nothing: null }]);
    await db.query('delete from t where id = $1', ['ü-1']);
  });

  test('a write answers how many rows it changed', async () => {
    const update = 'update t set n = n + $2 where id = any($1::text[])';
    assert.equal((await db.query(update, [['a', 'b'], 10])).rowCount, 2);
    assert.equal((await db.query(update, [['none'], 10])).rowCount, 0);
    const { rows } = await db.query('select n from t where id = $1', ['b']);
    assert.deepEqual(rows, [{ n: 12 }]);
  });

  test('a constraint violation keeps its SQLSTATE, and the statement still works after', async () => {
    const insert = 'insert into t (id, n) values ($1, $2)';
    await assert.rejects(db.query(insert, ['a', 5]), { code: '23505' });
    await db.query(insert, ['d', 4]);
    const { rows } = await db.query('select n from t where id = $1', ['d']);
    assert.deepEqual(rows, [{ n: 4 }]);
  });

  test('inside a transaction: its own writes are seen, and a failure rolls all of them back', async () => {
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.query('insert into t (id, n) values ($1, $2)', ['e', 1]);
        const seen = await tx.query('select n from t where id = $1', ['e']);
        assert.deepEqual(seen.rows, [{ n: 1 }]);
        await tx.query('insert into t (id, n) values ($1, $2)', ['e', 2]);
      }),
      { code: '23505' },
    );
    assert.deepEqual((await db.query('select n from t where id = $1', ['e'])).rows, []);
  });

  test('a query sent while a transaction is open waits for its commit', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inside: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      inside = resolve;
    });
    const transaction = db.transaction(async (tx) => {
      await tx.query('insert into t (id, n) values ($1, $2)', ['f', 1]);
      inside();
      await held;
      await tx.query('update t set n = $2 where id = $1', ['f', 2]);
    });
    await started;
    const outside = db.query<{ n: number }>('select n from t where id = $1', ['f']);
    release();
    await transaction;
    // Not the half-done row (n = 1): the query ran after the commit.
    assert.deepEqual((await outside).rows, [{ n: 2 }]);
  });

  test('a table that gained a column since a `select *` was prepared is read whole', async () => {
    const select = 'select * from t where id = $1';
    assert.deepEqual(Object.keys((await db.query(select, ['a'])).rows[0] ?? {}), [
      'id',
      'n',
      'tags',
      'doc',
      'at',
    ]);
    await db.query('alter table t add column extra text');
    const { rows } = await db.query<Record<string, unknown>>(select, ['a']);
    assert.equal(rows[0]?.extra, null);
    assert.equal(rows[0]?.n, 11);
  });

  test('SQL built per call (more than 500 texts) still runs, unprepared past the limit', async () => {
    for (let i = 0; i < 520; i++) {
      const { rows } = await db.query<{ v: number }>(`select $1::int + ${i} as v`, [1]);
      assert.deepEqual(rows, [{ v: 1 + i }]);
    }
    await db.transaction(async (tx) => {
      const { rows } = await tx.query('select $1::int + 1000 as v', [1]);
      assert.deepEqual(rows, [{ v: 1001 }]);
    });
  });
});
