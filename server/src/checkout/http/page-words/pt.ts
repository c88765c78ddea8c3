import type { PageWords } from './en.js';

/** Portuguese (Português). */
export const pt: PageWords = {
  pageTitle: 'Pagamento',
  bankTitle: 'O seu banco',
  'challenge.uploaded': 'Verificação concluída. Finalização do pagamento em curso…',
  'challenge.unknown': 'Verificação recebida. Finalização do pagamento em curso…',
  'challenge.refused': 'A verificação não foi aprovada. A verificar o pagamento junto do banco…',
  'challenge.replay': 'Esta verificação já tinha sido recebida. Nada foi alterado.',
  'challenge.not-expected':
    'Não era esperada nenhuma verificação para este pagamento. Nada foi alterado.',
  unverified: 'Não foi possível verificar esta notificação. Nada foi alterado.',
  checking: 'Verificação do pagamento com o banco em curso. Pode voltar à loja.',
  finishedReturn: 'Pagamento concluído. Pode voltar à loja.',
  methodDone: 'Etapa de verificação concluída.',
  alreadyFinished: 'Este pagamento já foi concluído.',
  alreadyFinishedUnchanged: 'Este pagamento já foi concluído. Nada foi alterado.',
  finished: 'Pagamento concluído.',
  nothingToDo: 'Não há nada a processar aqui.',
  unknownPayment: 'Pagamento desconhecido. Nada foi alterado.',
  failedChecking:
    'Ocorreu um erro do nosso lado. O pagamento está em verificação; pode voltar à loja.',
  failedUnchanged: 'Ocorreu um erro do nosso lado. Nada foi alterado.',
  unreadable: 'Não foi possível ler esta solicitação. Nada foi alterado.',
  stepOver: 'Este passo com o seu banco já terminou.',
  backToShop: 'Voltar à loja',
  closePage: 'Pode fechar esta página.',
};
