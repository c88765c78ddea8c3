import type { PageWords } from './en.js';

/** Hebrew (עברית). */
export const he: PageWords = {
  pageTitle: 'תשלום',
  bankTitle: 'הבנק שלך',
  'challenge.uploaded': 'האימות הושלם. משלימים את התשלום…',
  'challenge.unknown': 'האימות התקבל. משלימים את התשלום…',
  'challenge.refused': 'האימות לא אושר. בודקים את התשלום מול הבנק…',
  'challenge.replay': 'אימות זה כבר התקבל. לא בוצע שום שינוי.',
  'challenge.not-expected': 'לא נדרש אימות עבור תשלום זה. לא בוצע שום שינוי.',
  unverified: 'לא ניתן היה לאמת את ההודעה הזו. לא בוצע שום שינוי.',
  checking: 'בודקים את התשלום מול הבנק. אפשר לחזור לחנות.',
  finishedReturn: 'התשלום הסתיים. אפשר לחזור לחנות.',
  methodDone: 'שלב האימות הושלם.',
  alreadyFinished: 'התשלום הזה כבר הסתיים.',
  alreadyFinishedUnchanged: 'התשלום הזה כבר הסתיים. לא בוצע שום שינוי.',
  finished: 'התשלום הסתיים.',
  nothingToDo: 'אין כאן מה לעבד.',
  unknownPayment: 'תשלום לא מוכר. לא בוצע שום שינוי.',
  failedChecking: 'אירעה תקלה אצלנו. התשלום בבדיקה; אפשר לחזור לחנות.',
  failedUnchanged: 'אירעה תקלה אצלנו. לא בוצע שום שינוי.',
  unreadable: 'לא ניתן היה לקרוא את הבקשה. לא בוצע שום שינוי.',
  stepOver: 'השלב הזה מול הבנק שלך הסתיים.',
  backToShop: 'חזרה לחנות',
  closePage: 'אפשר לסגור את הדף הזה.',
};
