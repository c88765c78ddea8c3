import type { PageWords } from './en.js';

/** Arabic (العربية). */
export const ar: PageWords = {
  pageTitle: 'الدفع',
  bankTitle: 'بنكك',
  'challenge.uploaded': 'اكتمل التحقق. جارٍ إتمام الدفع…',
  'challenge.unknown': 'تم استلام التحقق. جارٍ إتمام الدفع…',
  'challenge.refused': 'لم يتم قبول التحقق. جارٍ مراجعة الدفع لدى البنك…',
  'challenge.replay': 'تم استلام هذا التحقق من قبل. لم يتم تغيير أي شيء.',
  'challenge.not-expected': 'لم يكن من المتوقع إجراء أي تحقق لهذه الدفعة. لم يتم تغيير أي شيء.',
  unverified: 'تعذّر التحقق من هذا الإشعار. لم يتم تغيير أي شيء.',
  checking: 'جارٍ مراجعة الدفع لدى البنك. يمكنك العودة إلى المتجر.',
  finishedReturn: 'انتهت عملية الدفع. يمكنك العودة إلى المتجر.',
  methodDone: 'اكتملت خطوة التحقق.',
  alreadyFinished: 'انتهت عملية الدفع هذه بالفعل.',
  alreadyFinishedUnchanged: 'انتهت عملية الدفع هذه بالفعل. لم يتم تغيير أي شيء.',
  finished: 'انتهت عملية الدفع.',
  nothingToDo: 'لا يوجد شيء لمعالجته هنا.',
  unknownPayment: 'عملية دفع غير معروفة. لم يتم تغيير أي شيء.',
  failedChecking: 'حدث خطأ من جانبنا. جارٍ مراجعة الدفع؛ يمكنك العودة إلى المتجر.',
  failedUnchanged: 'حدث خطأ من جانبنا. لم يتم تغيير أي شيء.',
  unreadable: 'تعذّرت قراءة هذا الطلب. لم يتم تغيير أي شيء.',
  stepOver: 'انتهت هذه الخطوة مع مصرفك.',
  backToShop: 'العودة إلى المتجر',
  closePage: 'يمكنك إغلاق هذه الصفحة.',
};
