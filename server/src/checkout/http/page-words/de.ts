import type { PageWords } from './en.js';

/** German (Deutsch). */
export const de: PageWords = {
  pageTitle: 'Zahlung',
  bankTitle: 'Ihre Bank',
  'challenge.uploaded': 'Bestätigung erfolgreich. Zahlung wird abgeschlossen…',
  'challenge.unknown': 'Bestätigung erhalten. Zahlung wird abgeschlossen…',
  'challenge.refused': 'Die Bestätigung wurde nicht akzeptiert. Zahlung wird bei der Bank geprüft…',
  'challenge.replay': 'Diese Bestätigung wurde bereits empfangen. Es wurde nichts geändert.',
  'challenge.not-expected':
    'Für diese Zahlung wurde keine Bestätigung erwartet. Es wurde nichts geändert.',
  unverified: 'Diese Benachrichtigung konnte nicht überprüft werden. Es wurde nichts geändert.',
  checking: 'Die Zahlung wird bei der Bank geprüft. Sie können zum Shop zurückkehren.',
  finishedReturn: 'Zahlung abgeschlossen. Sie können zum Shop zurückkehren.',
  methodDone: 'Prüfschritt abgeschlossen.',
  alreadyFinished: 'Diese Zahlung ist bereits abgeschlossen.',
  alreadyFinishedUnchanged: 'Diese Zahlung ist bereits abgeschlossen. Es wurde nichts geändert.',
  finished: 'Zahlung abgeschlossen.',
  nothingToDo: 'Hier gibt es nichts zu verarbeiten.',
  unknownPayment: 'Unbekannte Zahlung. Es wurde nichts geändert.',
  failedChecking:
    'Bei uns ist ein Fehler aufgetreten. Die Zahlung wird geprüft; Sie können zum Shop zurückkehren.',
  failedUnchanged: 'Bei uns ist ein Fehler aufgetreten. Es wurde nichts geändert.',
  unreadable: 'Diese Anfrage konnte nicht gelesen werden. Es wurde nichts geändert.',
  stepOver: 'Dieser Schritt bei Ihrer Bank ist abgeschlossen.',
  backToShop: 'Zurück zum Shop',
  closePage: 'Sie können diese Seite schließen.',
};
