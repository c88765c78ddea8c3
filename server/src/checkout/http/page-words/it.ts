import type { PageWords } from './en.js';

/** Italian (Italiano). */
export const it: PageWords = {
  pageTitle: 'Pagamento',
  bankTitle: 'La banca',
  'challenge.uploaded': 'Verifica completata. Finalizzazione del pagamento…',
  'challenge.unknown': 'Verifica ricevuta. Finalizzazione del pagamento…',
  'challenge.refused': 'La verifica non è stata accettata. Controllo del pagamento con la banca…',
  'challenge.replay': 'Questa verifica era già stata ricevuta. Non è stato modificato nulla.',
  'challenge.not-expected':
    'Per questo pagamento non era prevista alcuna verifica. Non è stato modificato nulla.',
  unverified: 'Non è stato possibile verificare questa notifica. Non è stato modificato nulla.',
  checking: 'Controllo del pagamento con la banca in corso. È possibile tornare al negozio.',
  finishedReturn: 'Pagamento concluso. È possibile tornare al negozio.',
  methodDone: 'Passaggio di verifica completato.',
  alreadyFinished: 'Questo pagamento è già concluso.',
  alreadyFinishedUnchanged: 'Questo pagamento è già concluso. Non è stato modificato nulla.',
  finished: 'Pagamento concluso.',
  nothingToDo: 'Niente da elaborare qui.',
  unknownPayment: 'Pagamento sconosciuto. Non è stato modificato nulla.',
  failedChecking:
    'Si è verificato un errore da parte nostra. Il pagamento è in fase di verifica; è possibile tornare al negozio.',
  failedUnchanged: 'Si è verificato un errore da parte nostra. Non è stato modificato nulla.',
  unreadable: 'Non è stato possibile leggere questa richiesta. Non è stato modificato nulla.',
  stepOver: 'Questo passaggio con la banca è concluso.',
  backToShop: 'Torna al negozio',
  closePage: 'È possibile chiudere questa pagina.',
};
