import type { PageWords } from './en.js';

/** Czech (Čeština). */
export const cs: PageWords = {
  pageTitle: 'Platba',
  bankTitle: 'Vaše banka',
  'challenge.uploaded': 'Ověření proběhlo. Dokončujeme platbu…',
  'challenge.unknown': 'Ověření přijato. Dokončujeme platbu…',
  'challenge.refused': 'Ověření nebylo přijato. Kontrolujeme platbu u banky…',
  'challenge.replay': 'Toto ověření již bylo přijato. Nic nebylo změněno.',
  'challenge.not-expected': 'U této platby se žádné ověření neočekávalo. Nic nebylo změněno.',
  unverified: 'Toto oznámení se nepodařilo ověřit. Nic nebylo změněno.',
  checking: 'Kontrolujeme platbu u banky. Můžete se vrátit do obchodu.',
  finishedReturn: 'Platba je ukončena. Můžete se vrátit do obchodu.',
  methodDone: 'Krok ověření dokončen.',
  alreadyFinished: 'Tato platba již byla ukončena.',
  alreadyFinishedUnchanged: 'Tato platba již byla ukončena. Nic nebylo změněno.',
  finished: 'Platba je ukončena.',
  nothingToDo: 'Zde není co zpracovat.',
  unknownPayment: 'Neznámá platba. Nic nebylo změněno.',
  failedChecking: 'Na naší straně došlo k chybě. Platbu kontrolujeme; můžete se vrátit do obchodu.',
  failedUnchanged: 'Na naší straně došlo k chybě. Nic nebylo změněno.',
  unreadable: 'Tento požadavek se nepodařilo přečíst. Nic nebylo změněno.',
  stepOver: 'Tento krok u vaší banky je již dokončen.',
  backToShop: 'Zpět do obchodu',
  closePage: 'Tuto stránku můžete zavřít.',
};
