import type { PageWords } from './en.js';

/** French (Français). */
export const fr: PageWords = {
  pageTitle: 'Paiement',
  bankTitle: 'Votre banque',
  'challenge.uploaded': 'Vérification terminée. Finalisation du paiement…',
  'challenge.unknown': 'Vérification reçue. Finalisation du paiement…',
  'challenge.refused':
    'La vérification n’a pas été acceptée. Contrôle du paiement auprès de la banque…',
  'challenge.replay': 'Cette vérification a déjà été reçue. Rien n’a été modifié.',
  'challenge.not-expected':
    'Aucune vérification n’était attendue pour ce paiement. Rien n’a été modifié.',
  unverified: 'Cette notification n’a pas pu être vérifiée. Rien n’a été modifié.',
  checking:
    'Le paiement est en cours de vérification auprès de la banque. Vous pouvez retourner sur la boutique.',
  finishedReturn: 'Paiement terminé. Vous pouvez retourner sur la boutique.',
  methodDone: 'Étape de vérification terminée.',
  alreadyFinished: 'Ce paiement est déjà terminé.',
  alreadyFinishedUnchanged: 'Ce paiement est déjà terminé. Rien n’a été modifié.',
  finished: 'Paiement terminé.',
  nothingToDo: 'Rien à traiter ici.',
  unknownPayment: 'Paiement inconnu. Rien n’a été modifié.',
  failedChecking:
    'Une erreur s’est produite de notre côté. Le paiement est en cours de vérification ; vous pouvez retourner sur la boutique.',
  failedUnchanged: 'Une erreur s’est produite de notre côté. Rien n’a été modifié.',
  unreadable: 'Cette requête n’a pas pu être lue. Rien n’a été modifié.',
  stepOver: 'Cette étape auprès de votre banque est terminée.',
  backToShop: 'Retourner sur la boutique',
  closePage: 'Vous pouvez fermer cette page.',
};
