/**
 * A new data folder as a copy of a template (`npm start`): made once by initdb, then copied; a
 * template someone else could have changed is not used. initdb is a stand-in here (it writes a
 * marker), so that the copying is what is tested; the real first start of a folder is in
 * pglite-engine.test.ts and main.test.ts.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  newDataFolder,
  templateFolder,
  useDataFolderTemplates,
} from '../../../server/src/store/engine/pglite-template.js';

describe('data folder templates', () => {
  let root: string;
  // A recipe of this run's own: its template is a folder no other run reads.
  const recipe = `test ${randomBytes(6).toString('hex')}`;
  const template = templateFolder(recipe) as string;
  const made: string[] = [];
  const initdb = async (folder: string) => {
    made.push(folder);
    await mkdir(join(folder, 'base', '1'), { recursive: true });
    await writeFile(join(folder, 'PG_VERSION'), '17\n');
    await writeFile(join(folder, 'base', '1', 'table'), `made in ${folder}`);
  };

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'pglite-template-'));
  });
  after(async () => {
    useDataFolderTemplates(false);
    await rm(root, { recursive: true, force: true });
    await rm(template, { recursive: true, force: true });
  });

  test('the template sits in node_modules/.cache beside PGlite, named by its version', () => {
    assert.match(template, /node_modules[/\\]\.cache[/\\]pay-checkout[/\\]pglite-[\d.]+-\w{12}-/);
    assert.notEqual(templateFolder('another recipe'), template);
  });

  test('without templates, initdb makes the folder itself', async () => {
    made.length = 0;
    const folder = join(root, 'plain');
    await newDataFolder(folder, recipe, initdb);
    assert.deepEqual(made, [folder]);
  });

  test('with templates: the first folder makes the template, later ones copy it', async () => {
    useDataFolderTemplates();
    made.length = 0;
    const first = join(root, 'first');
    await newDataFolder(first, recipe, initdb);
    // initdb ran once, into a scratch folder renamed to the template, which was then copied.
    assert.equal(made.length, 1);
    assert.equal(dirname(made[0] as string), dirname(template));
    assert.equal(await readFile(join(first, 'PG_VERSION'), 'utf8'), '17\n');
    const scratch = (await readdir(dirname(template))).filter((name) =>
      name.startsWith(`${basename(template)}.`),
    );
    assert.deepEqual(scratch, []);
    const second = join(root, 'second');
    await newDataFolder(second, recipe, initdb);
    assert.equal(made.length, 1);
    assert.equal(
      await readFile(join(second, 'base', '1', 'table'), 'utf8'),
      await readFile(join(template, 'base', '1', 'table'), 'utf8'),
    );
    // A copy, not a link: a change in one folder is not in the other.
    await writeFile(join(second, 'base', '1', 'table'), 'changed');
    assert.notEqual(await readFile(join(template, 'base', '1', 'table'), 'utf8'), 'changed');
  });

  test('a template others may write to is not used: initdb makes the folder', async () => {
    useDataFolderTemplates();
    await chmod(template, 0o777);
    try {
      made.length = 0;
      const folder = join(root, 'writable-template');
      await newDataFolder(folder, recipe, initdb);
      assert.deepEqual(made, [folder]);
    } finally {
      await chmod(template, 0o700);
    }
  });

  test('a template holding a link is not copied: initdb makes the folder, no half copy stays', async () => {
    useDataFolderTemplates();
    await symlink('/etc/passwd', join(template, 'base', 'link'));
    try {
      made.length = 0;
      const folder = join(root, 'linked-template');
      await newDataFolder(folder, recipe, initdb);
      assert.deepEqual(made, [folder]);
      assert.deepEqual((await readdir(folder)).sort(), ['PG_VERSION', 'base']);
      assert.deepEqual(await readdir(join(folder, 'base')), ['1']);
    } finally {
      await rm(join(template, 'base', 'link'));
    }
  });
});
