// Cupones (docs/portal.md#coupons): the portal's words for the merchant's coupons.
// Spanish first; English with the portal's `?lang=en`.

import type { Lang } from '@/lib/checkout/i18n';

const es = {
  nav: 'Cupones',
  title: 'Cupones',
  intro:
    'Un cupón descuenta un porcentaje o un monto de los cobros de un plan: el primero, los primeros N o todos. Aplíquelo al crear un link (plan.coupon, con su id o código) o deje que el cliente escriba el código en la página de pago (plan.allowPromotionCodes).',
  createTitle: 'Nuevo cupón',
  labels: {
    code: 'Código (opcional)',
    kind: 'Tipo de descuento',
    percent: 'Porcentaje (1 a 99)',
    amount: 'Monto en pesos',
    value: 'Valor del descuento',
    duration: 'Duración',
    periods: 'Número de cobros (para «Varios cobros»)',
    maxRedemptions: 'Usos máximos (opcional)',
    redeemBy: 'Se puede usar hasta (opcional)',
  },
  codeHint: 'Letras, números, - o _ (3 a 40). El cliente lo escribe sin importar mayúsculas.',
  durations: { once: 'Solo el primer cobro', repeating: 'Varios cobros', forever: 'Todos los cobros' },
  create: 'Crear cupón',
  created: 'Listo: el cupón {code} quedó creado.',
  createdNoCode: 'Listo: el cupón quedó creado. Aplíquelo con su id: {id}',
  problem: 'No pudimos crear el cupón:',
  listTitle: 'Sus cupones',
  none: 'Aún no tiene cupones.',
  columns: { code: 'Código', discount: 'Descuento', duration: 'Duración', redemptions: 'Usos', redeemBy: 'Válido hasta', id: 'Id' },
  everyCharge: 'Todos los cobros',
  firstCharge: 'El primer cobro',
  charges: '{n} cobros',
  unlimited: 'sin límite',
  noCode: 'Sin código',
  noDate: 'Sin fecha',
  delete: 'Eliminar',
  deleteCoupon: 'Eliminar el cupón {code}',
  deleteWarning: 'Ya no se podrá aplicar; los planes que lo tienen conservan su descuento.',
  deleted: 'Listo: el cupón quedó eliminado.',
  deleteMissing: 'Ese cupón ya no existe.',
  pending: 'Un momento…',
  copy: 'Copiar',
  copied: 'Copiado',
};

export type CouponsCopy = typeof es;

const en: CouponsCopy = {
  nav: 'Coupons',
  title: 'Coupons',
  intro:
    "A coupon takes a percentage or an amount off a plan's charges: the first, the first N or all of them. Apply it when you create a link (plan.coupon, with its id or code) or let the customer type its code on the payment page (plan.allowPromotionCodes).",
  createTitle: 'New coupon',
  labels: {
    code: 'Code (optional)',
    kind: 'Kind of discount',
    percent: 'Percentage (1 to 99)',
    amount: 'Amount in pesos',
    value: 'Discount value',
    duration: 'Duration',
    periods: 'Number of charges (for "Several charges")',
    maxRedemptions: 'Maximum uses (optional)',
    redeemBy: 'Can be used until (optional)',
  },
  codeHint: 'Letters, digits, - or _ (3 to 40). Customers type it in any case.',
  durations: { once: 'The first charge only', repeating: 'Several charges', forever: 'Every charge' },
  create: 'Create coupon',
  created: 'Done: coupon {code} was created.',
  createdNoCode: 'Done: the coupon was created. Apply it by its id: {id}',
  problem: 'We could not create the coupon:',
  listTitle: 'Your coupons',
  none: 'You have no coupons yet.',
  columns: { code: 'Code', discount: 'Discount', duration: 'Duration', redemptions: 'Uses', redeemBy: 'Valid until', id: 'Id' },
  everyCharge: 'Every charge',
  firstCharge: 'The first charge',
  charges: '{n} charges',
  unlimited: 'no limit',
  noCode: 'No code',
  noDate: 'No date',
  delete: 'Delete',
  deleteCoupon: 'Delete coupon {code}',
  deleteWarning: 'It can no longer be applied; plans that have it keep their discount.',
  deleted: 'Done: the coupon was deleted.',
  deleteMissing: 'That coupon no longer exists.',
  pending: 'One moment…',
  copy: 'Copy',
  copied: 'Copied',
};

export function couponsCopy(lang: Lang): CouponsCopy {
  return lang === 'en' ? en : es;
}
