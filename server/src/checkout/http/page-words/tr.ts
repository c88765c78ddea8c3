import type { PageWords } from './en.js';

/** Turkish (Türkçe). */
export const tr: PageWords = {
  pageTitle: 'Ödeme',
  bankTitle: 'Bankanız',
  'challenge.uploaded': 'Doğrulama tamamlandı. Ödeme sonuçlandırılıyor…',
  'challenge.unknown': 'Doğrulama alındı. Ödeme sonuçlandırılıyor…',
  'challenge.refused': 'Doğrulama kabul edilmedi. Ödeme bankayla kontrol ediliyor…',
  'challenge.replay': 'Bu doğrulama zaten alınmıştı. Hiçbir şey değiştirilmedi.',
  'challenge.not-expected': 'Bu ödeme için doğrulama beklenmiyordu. Hiçbir şey değiştirilmedi.',
  unverified: 'Bu bildirim doğrulanamadı. Hiçbir şey değiştirilmedi.',
  checking: 'Ödeme bankayla kontrol ediliyor. Mağazaya dönebilirsiniz.',
  finishedReturn: 'Ödeme işlemi sonuçlandı. Mağazaya dönebilirsiniz.',
  methodDone: 'Doğrulama adımı tamamlandı.',
  alreadyFinished: 'Bu ödeme zaten sonuçlandı.',
  alreadyFinishedUnchanged: 'Bu ödeme zaten sonuçlandı. Hiçbir şey değiştirilmedi.',
  finished: 'Ödeme işlemi sonuçlandı.',
  nothingToDo: 'Burada işlenecek bir şey yok.',
  unknownPayment: 'Bilinmeyen ödeme. Hiçbir şey değiştirilmedi.',
  failedChecking:
    'Bizim tarafımızda bir sorun oluştu. Ödeme kontrol ediliyor; mağazaya dönebilirsiniz.',
  failedUnchanged: 'Bizim tarafımızda bir sorun oluştu. Hiçbir şey değiştirilmedi.',
  unreadable: 'Bu istek okunamadı. Hiçbir şey değiştirilmedi.',
  stepOver: 'Bankanızdaki bu adım tamamlandı.',
  backToShop: 'Mağazaya dön',
  closePage: 'Bu sayfayı kapatabilirsiniz.',
};
