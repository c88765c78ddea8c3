import { expect } from '@open-wc/testing';
import { languageData } from '../../../widget/src/i18n/language-data.js';

// fixtures/locales: de.json and the list index.json, which gives fr.json the hash of de.json, as
// if fr.json had been changed (by one byte) after the build.
const BASE = new URL('./fixtures/', import.meta.url).href;

async function sha384(path: string): Promise<string> {
  const bytes = await (await fetch(new URL(path, BASE))).arrayBuffer();
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-384', bytes));
  return `sha384-${btoa(String.fromCharCode(...digest))}`;
}

const outcome = (p: Promise<unknown>) =>
  p.then(
    () => 'read',
    () => 'refused',
  );

describe('languages as data checked against the build’s hashes', () => {
  it('a file that matches its hash in a list that matches the baked-in hash is read', async () => {
    const load = languageData(BASE, await sha384('locales/index.json'));
    expect(await load('de')).to.deep.equal({ number: 'Kartennummer', pay: '{amount} bezahlen' });
  });

  it('a file changed by one byte is refused', async () => {
    const load = languageData(BASE, await sha384('locales/index.json'));
    const error = await load('fr').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(TypeError);
  });

  it('a list that does not match the baked-in hash is refused, and asked for again next time', async () => {
    const wrong = await sha384('locales/de.json');
    let asked = 0;
    const fetchOf = window.fetch;
    window.fetch = (input, init) => {
      if (String(input).endsWith('/index.json')) asked++;
      return fetchOf(input, init);
    };
    try {
      const load = languageData(BASE, wrong);
      for (const _ of [1, 2]) {
        const error = await load('de').then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).to.be.instanceOf(TypeError);
      }
    } finally {
      window.fetch = fetchOf;
    }
    expect(asked).to.equal(2);
  });

  it('a language the list does not name, or a file that is not there, is refused', async () => {
    const load = languageData(BASE, await sha384('locales/index.json'));
    expect(await outcome(load('ru'))).to.equal('refused');
    const elsewhere = languageData(new URL('./nowhere/', BASE).href, 'sha384-x');
    expect(await outcome(elsewhere('de'))).to.equal('refused');
  });
});
