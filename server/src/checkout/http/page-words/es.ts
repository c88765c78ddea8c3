import type { PageWords } from './en.js';

/** Spanish (Español). */
export const es: PageWords = {
  pageTitle: 'Pago',
  bankTitle: 'Su banco',
  'challenge.uploaded': 'Verificación completada. Finalizando el pago…',
  'challenge.unknown': 'Verificación recibida. Finalizando el pago…',
  'challenge.refused': 'No se ha aceptado la verificación. Comprobando el pago con el banco…',
  'challenge.replay': 'Esta verificación ya se había recibido. No se ha modificado nada.',
  'challenge.not-expected':
    'No se esperaba ninguna verificación para este pago. No se ha modificado nada.',
  unverified: 'No se ha podido verificar esta notificación. No se ha modificado nada.',
  checking: 'Comprobando el pago con el banco. Puede volver a la tienda.',
  finishedReturn: 'Pago finalizado. Puede volver a la tienda.',
  methodDone: 'Paso de verificación completado.',
  alreadyFinished: 'Este pago ya ha finalizado.',
  alreadyFinishedUnchanged: 'Este pago ya ha finalizado. No se ha modificado nada.',
  finished: 'Pago finalizado.',
  nothingToDo: 'No hay nada que procesar aquí.',
  unknownPayment: 'Pago desconocido. No se ha modificado nada.',
  failedChecking:
    'Se ha producido un error por nuestra parte. Se está comprobando el pago; puede volver a la tienda.',
  failedUnchanged: 'Se ha producido un error por nuestra parte. No se ha modificado nada.',
  unreadable: 'No se ha podido leer esta solicitud. No se ha modificado nada.',
  stepOver: 'Este paso con su banco ya ha terminado.',
  backToShop: 'Volver a la tienda',
  closePage: 'Puede cerrar esta página.',
};
