import type { PageWords } from './en.js';

/** Polish (Polski). */
export const pl: PageWords = {
  pageTitle: 'Płatność',
  bankTitle: 'Strona banku',
  'challenge.uploaded': 'Weryfikacja zakończona. Finalizowanie płatności…',
  'challenge.unknown': 'Otrzymano weryfikację. Finalizowanie płatności…',
  'challenge.refused': 'Weryfikacja nie została zaakceptowana. Sprawdzanie płatności w banku…',
  'challenge.replay': 'Ta weryfikacja została już otrzymana. Niczego nie zmieniono.',
  'challenge.not-expected': 'Dla tej płatności nie oczekiwano weryfikacji. Niczego nie zmieniono.',
  unverified: 'Nie udało się zweryfikować tego powiadomienia. Niczego nie zmieniono.',
  checking: 'Sprawdzanie płatności w banku. Można wrócić do sklepu.',
  finishedReturn: 'Płatność zakończona. Można wrócić do sklepu.',
  methodDone: 'Etap weryfikacji zakończony.',
  alreadyFinished: 'Ta płatność jest już zakończona.',
  alreadyFinishedUnchanged: 'Ta płatność jest już zakończona. Niczego nie zmieniono.',
  finished: 'Płatność zakończona.',
  nothingToDo: 'Nie ma tu nic do przetworzenia.',
  unknownPayment: 'Nieznana płatność. Niczego nie zmieniono.',
  failedChecking:
    'Wystąpił błąd po naszej stronie. Płatność jest sprawdzana; można wrócić do sklepu.',
  failedUnchanged: 'Wystąpił błąd po naszej stronie. Niczego nie zmieniono.',
  unreadable: 'Nie udało się odczytać tego żądania. Niczego nie zmieniono.',
  stepOver: 'Ten etap w banku został już zakończony.',
  backToShop: 'Wróć do sklepu',
  closePage: 'Można zamknąć tę stronę.',
};
