import type { PageWords } from './en.js';

/** Dutch (Nederlands). */
export const nl: PageWords = {
  pageTitle: 'Betaling',
  bankTitle: 'Uw bank',
  'challenge.uploaded': 'Verificatie voltooid. De betaling wordt afgerond…',
  'challenge.unknown': 'Verificatie ontvangen. De betaling wordt afgerond…',
  'challenge.refused':
    'De verificatie is niet geaccepteerd. De betaling wordt gecontroleerd bij de bank…',
  'challenge.replay': 'Deze verificatie was al ontvangen. Er is niets gewijzigd.',
  'challenge.not-expected':
    'Voor deze betaling werd geen verificatie verwacht. Er is niets gewijzigd.',
  unverified: 'Deze melding kon niet worden geverifieerd. Er is niets gewijzigd.',
  checking: 'De betaling wordt gecontroleerd bij de bank. U kunt terugkeren naar de winkel.',
  finishedReturn: 'Betaling afgerond. U kunt terugkeren naar de winkel.',
  methodDone: 'Verificatiestap voltooid.',
  alreadyFinished: 'Deze betaling is al afgerond.',
  alreadyFinishedUnchanged: 'Deze betaling is al afgerond. Er is niets gewijzigd.',
  finished: 'Betaling afgerond.',
  nothingToDo: 'Hier valt niets te verwerken.',
  unknownPayment: 'Onbekende betaling. Er is niets gewijzigd.',
  failedChecking:
    'Er is bij ons iets misgegaan. De betaling wordt gecontroleerd; u kunt terugkeren naar de winkel.',
  failedUnchanged: 'Er is bij ons iets misgegaan. Er is niets gewijzigd.',
  unreadable: 'Dit verzoek kon niet worden gelezen. Er is niets gewijzigd.',
  stepOver: 'Deze stap bij uw bank is afgerond.',
  backToShop: 'Terug naar de winkel',
  closePage: 'U kunt deze pagina sluiten.',
};
