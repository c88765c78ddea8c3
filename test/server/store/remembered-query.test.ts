import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Database } from '../../../server/src/store/index.js';
import { rememberedQuery } from '../../../server/src/store/remembered-query.js';
import { memorySchema } from '../../support/memory-schemas.js';

const READ = 'select value from notes where key = $1';

/** A schema with a `notes` table, on this process's shared PGlite, that counts its reads. */
async function notesSchema(purpose: string) {
  const db = await memorySchema(purpose);
  await db.query('create table notes (key text primary key, value text not null)');
  await db.query(`insert into notes values ('a', 'one'), ('b', 'two')`);
  const readOnly = db.readOnly;
  assert.ok(readOnly, 'a PGlite database offers readOnly');
  const notes = {
    db,
    reads: 0,
    spied: {
      ...db,
      readOnly: (sql, params) => {
        notes.reads += 1;
        return readOnly(sql, params);
      },
    } satisfies Database,
  };
  return notes;
}

const firstValue = async (
  read: (key: string) => Promise<{ rows: { value: string }[] }>,
  key: string,
) => (await read(key)).rows[0]?.value;

describe('a remembered query on embedded PGlite', () => {
  let notes: Awaited<ReturnType<typeof notesSchema>>;
  let read: (key: string) => Promise<{ rows: { value: string }[] }>;
  before(async () => {
    notes = await notesSchema('remembered');
  });

  test('answers the same key from memory while nothing is written', async () => {
    read = rememberedQuery(notes.spied, READ);
    const before = notes.reads;
    assert.equal(await firstValue(read, 'a'), 'one');
    assert.equal(await firstValue(read, 'a'), 'one');
    assert.equal(await firstValue(read, 'b'), 'two');
    assert.equal(await firstValue(read, 'a'), 'one');
    assert.equal(notes.reads - before, 2, 'one database read per key');
  });

  test('reads again after any statement, even one that changes another row', async () => {
    read = rememberedQuery(notes.spied, READ);
    await firstValue(read, 'a');
    await notes.db.query(`update notes set value = 'deux' where key = 'b'`);
    const before = notes.reads;
    assert.equal(await firstValue(read, 'a'), 'one');
    assert.equal(notes.reads - before, 1);
    await notes.db.query(`update notes set value = 'uno' where key = 'a'`);
    assert.equal(await firstValue(read, 'a'), 'uno');
  });

  test("reads again after another schema's statement on the same PGlite", async () => {
    read = rememberedQuery(notes.spied, READ);
    await firstValue(read, 'a');
    const other = await notesSchema('remembered_other');
    const before = notes.reads;
    await other.db.query(`update notes set value = 'x' where key = 'a'`);
    await firstValue(read, 'a');
    assert.equal(notes.reads - before, 1);
  });

  test('after a transaction, committed or rolled back, reads what the database holds', async () => {
    read = rememberedQuery(notes.spied, READ);
    await notes.db.query(`update notes set value = 'one' where key = 'a'`);
    assert.equal(await firstValue(read, 'a'), 'one');
    await assert.rejects(
      notes.db.transaction(async (tx) => {
        await tx.query(`update notes set value = 'lost' where key = 'a'`);
        throw new Error('rolled back');
      }),
      /rolled back/,
    );
    assert.equal(await firstValue(read, 'a'), 'one');
    await notes.db.transaction((tx) => tx.query(`update notes set value = 'kept' where key = 'a'`));
    assert.equal(await firstValue(read, 'a'), 'kept');
  });

  test('a write started while a read is under way: the read is not kept', async () => {
    read = rememberedQuery(notes.spied, READ);
    const during = read('a');
    const write = notes.db.query(`update notes set value = 'later' where key = 'a'`);
    // Started first, so it ran first and saw the value before the write.
    assert.equal((await during).rows[0]?.value, 'kept');
    await write;
    assert.equal(await firstValue(read, 'a'), 'later');
  });

  test('an answer is shared; its rows are the ones the database gave', async () => {
    read = rememberedQuery(notes.spied, READ);
    assert.deepEqual(await read('missing'), { rows: [], rowCount: 0 });
    assert.deepEqual(await read('b'), { rows: [{ value: 'deux' }], rowCount: 1 });
  });
});

test('on a database that does not count its writes (PostgreSQL, a transaction), every call queries', async () => {
  let queries = 0;
  const plain = {
    query: async <Row>(_sql: string, params?: unknown[]) => {
      queries += 1;
      return { rows: [{ value: `v${queries}:${String(params?.[0])}` }] as Row[], rowCount: 1 };
    },
  };
  const read = rememberedQuery<{ value: string }>(plain, READ);
  assert.equal(await firstValue(read, 'a'), 'v1:a');
  assert.equal(await firstValue(read, 'a'), 'v2:a');
  assert.equal(queries, 2);
});
