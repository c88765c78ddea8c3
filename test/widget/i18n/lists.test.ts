/**
 * Lists in the language shown: the "please correct" summary joins the fields with
 * Intl.ListFormat ("A, B und C", Arabic «A وB وC»), and a saved card's parts take the language's
 * comma (Arabic «،»), never a Latin comma in Arabic.
 */
import { expect } from '@open-wc/testing';
import { FakeBackend, sessionView } from '../support/fake-backend.js';
import { type Mounted, mount, payButton } from '../support/mount.js';

let m: Mounted | undefined;
afterEach(() => {
  m?.stop();
  m = undefined;
});

/** What the element says after Pay with every field empty. */
async function summaryIn(locale: string): Promise<string> {
  m = await mount({ attrs: { locale } });
  payButton(m).click();
  await m.until('pay-error');
  await m.el.updateComplete;
  return m.$('[role="status"]').textContent!;
}

describe('lists in the language shown', () => {
  it('German: "A, B, C und D"', async () => {
    expect(await summaryIn('de-DE')).to.equal(
      'Bitte korrigieren Sie: Kartennummer, Ablaufdatum, Sicherheitscode und Name auf der Karte.',
    );
  });

  it('Arabic: joined with «و», no Latin comma; the list isolated as one right-to-left run', async () => {
    const said = await summaryIn('ar');
    expect(said).to.equal(
      'يُرجى تصحيح الحقول التالية: \u2068رقم البطاقة وتاريخ الانتهاء ورمز الأمان والاسم على البطاقة\u2069.',
    );
    expect(said).to.not.include(',');
  });

  it('English: "A, B, C, and D"', async () => {
    expect(await summaryIn('en')).to.equal(
      'Please correct: Card number, Expiry date, Security code, and Name on card.',
    );
  });

  it('Arabic: a saved card’s parts with «،»', async () => {
    const backend = new FakeBackend().on('GET /widget/session', {
      json: sessionView({
        savedCards: [
          {
            handle: 'h-old',
            brand: 'VISA',
            brandId: 'visa',
            last4: '0005',
            expMonth: '01',
            expYear: '2021',
            holder: 'ADA LOVELACE',
            expired: true,
          },
        ],
      }),
    });
    m = await mount({ backend, attrs: { locale: 'ar' } });
    const label = m.$('[part="saved-card"]').textContent!.replace(/\s+/g, ' ').trim();
    expect(label).to.equal('Visa •••• 0005، 01/21، منتهية الصلاحية');
  });
});
