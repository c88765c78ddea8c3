import type { PageWords } from './en.js';

/** Romanian (Română). */
export const ro: PageWords = {
  pageTitle: 'Plată',
  bankTitle: 'Banca dumneavoastră',
  'challenge.uploaded': 'Verificare încheiată. Se finalizează plata…',
  'challenge.unknown': 'Verificare primită. Se finalizează plata…',
  'challenge.refused': 'Verificarea nu a fost acceptată. Se verifică plata la bancă…',
  'challenge.replay': 'Această verificare a fost deja primită. Nu s-a modificat nimic.',
  'challenge.not-expected':
    'Nu era așteptată nicio verificare pentru această plată. Nu s-a modificat nimic.',
  unverified: 'Această notificare nu a putut fi verificată. Nu s-a modificat nimic.',
  checking: 'Se verifică plata la bancă. Puteți reveni în magazin.',
  finishedReturn: 'Plata s-a încheiat. Puteți reveni în magazin.',
  methodDone: 'Etapa de verificare s-a încheiat.',
  alreadyFinished: 'Această plată s-a încheiat deja.',
  alreadyFinishedUnchanged: 'Această plată s-a încheiat deja. Nu s-a modificat nimic.',
  finished: 'Plata s-a încheiat.',
  nothingToDo: 'Nu este nimic de procesat aici.',
  unknownPayment: 'Plată necunoscută. Nu s-a modificat nimic.',
  failedChecking:
    'A apărut o eroare la noi. Plata este în curs de verificare; puteți reveni în magazin.',
  failedUnchanged: 'A apărut o eroare la noi. Nu s-a modificat nimic.',
  unreadable: 'Această solicitare nu a putut fi citită. Nu s-a modificat nimic.',
  stepOver: 'Acest pas la banca dumneavoastră s-a încheiat.',
  backToShop: 'Înapoi la magazin',
  closePage: 'Puteți închide această pagină.',
};
