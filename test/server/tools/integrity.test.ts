import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { sri } from '../../../server/src/sri.js';
import { integrityTag } from '../../../server/src/tools/integrity.js';

const dir = mkdtempSync(join(tmpdir(), 'integrity-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const SCRIPT = 'export {};\n';
writeFileSync(join(dir, 'pay-checkout.js'), SCRIPT);
writeFileSync(
  join(dir, 'integrity.json'),
  JSON.stringify({ version: '1.4.2', files: { 'pay-checkout.js': sri(SCRIPT) } }),
);

test('prints the tag that pins the versioned file under --base', () => {
  for (const base of ['https://pay.example/widget', 'https://pay.example/widget/']) {
    assert.deepEqual(integrityTag(['--dir', dir, '--base', base]), {
      code: 0,
      out: `<script type="module" src="https://pay.example/widget/v1.4.2/pay-checkout.js" integrity="${sri(SCRIPT)}" crossorigin="anonymous"></script>`,
    });
  }
  assert.match(integrityTag(['--dir', dir]).out, /src="\/v1\.4\.2\/pay-checkout\.js"/);
});

test('no tag for a file changed since its build, a folder with no build, or a bad --base', () => {
  writeFileSync(join(dir, 'pay-checkout.js'), `${SCRIPT} `);
  try {
    assert.deepEqual(integrityTag(['--dir', dir]), {
      code: 1,
      out: `${join(dir, 'pay-checkout.js')} does not match integrity.json: rebuild it`,
    });
  } finally {
    writeFileSync(join(dir, 'pay-checkout.js'), SCRIPT);
  }
  assert.equal(integrityTag(['--dir', join(dir, 'none')]).code, 1);
  assert.deepEqual(integrityTag(['--dir', dir, '--base', 'javascript:alert(1)']), {
    code: 2,
    out: '--base must be an http(s) URL, not "javascript:alert(1)"',
  });
  assert.equal(integrityTag(['--what']).code, 2);
});
