/**
 * Every string the element shows, in each language it speaks, side by side: `[English, Russian]`,
 * the order of LANGUAGES. One table rather than a file per language: a string cannot be added in
 * one language and forgotten in the other, and each key is written once (the CDN file carries
 * one copy of the keys, not one per language). `{name}` marks a slot that t() fills.
 */
export const LANGUAGES = ['en', 'ru'] as const;

export const STRINGS = {
  number: ['Card number', 'Номер карты'],
  expiry: ['Expiry date', 'Срок действия'],
  cvc: ['Security code', 'Код безопасности'],
  name: ['Name on card', 'Имя на карте'],
  expiryHint: ['MM/YY', 'ММ/ГГ'],
  cvcHint3: ['3 digits on the back', '3 цифры на обороте'],
  cvcHint4: ['4 digits on the front', '4 цифры на лицевой стороне'],
  pay: ['Pay {amount}', 'Оплатить {amount}'],
  payPlain: ['Pay', 'Оплатить'],
  paying: ['Processing…', 'Обработка…'],
  hostedNote: [
    'You will continue on the secure payment page.',
    'Оплата продолжится на защищённой странице.',
  ],
  'number.required': ['Enter the card number.', 'Введите номер карты.'],
  'number.invalid': ['This card number is not valid.', 'Неверный номер карты.'],
  'expiry.required': ['Enter the expiry date.', 'Введите срок действия.'],
  'expiry.invalid': ['Enter the expiry date as MM/YY.', 'Введите срок в формате ММ/ГГ.'],
  'expiry.past': ['This card has expired.', 'Срок действия карты истёк.'],
  'cvc.required': ['Enter the security code.', 'Введите код безопасности.'],
  'cvc.invalid': ['The security code has {n} digits.', 'Код безопасности состоит из {n} цифр.'],
  'name.required': ['Enter the name as printed on the card.', 'Введите имя, как на карте.'],
  'name.invalid': ['Enter the name as printed on the card.', 'Введите имя, как на карте.'],
  fixErrors: ['Please correct {count} field(s): {fields}.', 'Исправьте поля ({count}): {fields}.'],
  'step.paying': ['Sending the payment…', 'Отправляем платёж…'],
  'step.method': ['Checking the card with your bank…', 'Проверяем карту в банке…'],
  'step.challenge': [
    'Your bank asks you to confirm the payment.',
    'Банк просит подтвердить платёж.',
  ],
  'step.waiting': ['Waiting for the final answer…', 'Ждём окончательного ответа…'],
  'step.redirect': ['Taking you to your bank…', 'Переходим на страницу банка…'],
  dialogTitle: ['Confirm the payment with your bank', 'Подтвердите платёж в банке'],
  dialogClose: ['Cancel verification', 'Отменить подтверждение'],
  dialogFallback: [
    'Page not loading? Continue in this window',
    'Страница не загружается? Продолжить в этом окне',
  ],
  confirmCancel: [
    'Cancel the payment? Your bank may still be confirming it.',
    'Отменить платёж? Банк, возможно, ещё подтверждает его.',
  ],
  keepConfirming: ['Keep confirming', 'Продолжить подтверждение'],
  cancelPayment: ['Cancel payment', 'Отменить платёж'],
  resumedDetail: [
    'Your bank’s page was closed. If you confirmed the payment there, it completes in a moment.',
    'Страница банка закрыта. Если вы подтвердили платёж в банке, он завершится через минуту.',
  ],
  approved: ['Payment approved', 'Платёж принят'],
  approvedDetail: ['{amount} paid with {card}.', 'Оплачено {amount} картой {card}.'],
  approvedPlain: ['{amount} paid.', 'Оплачено {amount}.'],
  declined: ['Payment declined', 'Платёж отклонён'],
  declinedDetail: ['Your bank declined the payment.', 'Банк отклонил платёж.'],
  cancelled: ['Payment cancelled', 'Платёж отменён'],
  cancelledDetail: [
    'You cancelled the verification with your bank.',
    'Вы отменили подтверждение в банке.',
  ],
  abandonedDetail: [
    'Your bank’s page was closed before the payment was confirmed.',
    'Страница банка закрыта до подтверждения платежа.',
  ],
  again: [
    'You can pay again, with this card or another.',
    'Можно оплатить ещё раз этой или другой картой.',
  ],
  error: ['Payment failed', 'Платёж не прошёл'],
  'error.network': [
    'We could not reach the payment service. Check your connection and try again.',
    'Не удалось связаться с платёжным сервисом. Проверьте соединение и повторите.',
  ],
  'error.session-expired': [
    'This checkout has expired. Please reload the page.',
    'Сессия оплаты истекла. Обновите страницу.',
  ],
  'error.three-ds-timeout': [
    'The bank verification took too long.',
    'Подтверждение в банке заняло слишком много времени.',
  ],
  'error.conflict': [
    'This checkout cannot take a payment now.',
    'Сейчас этот заказ нельзя оплатить.',
  ],
  errorDetail: [
    'Something went wrong. Please try again.',
    'Что-то пошло не так. Попробуйте ещё раз.',
  ],
  tryAgain: ['Try again', 'Повторить'],
  testMode: ['Test mode', 'Тестовый режим'],
} as const satisfies Record<string, readonly [en: string, ru: string]>;

export type StringKey = keyof typeof STRINGS;
