// The portal's words for refunds due (docs/billing.md#refund-due): the flag on a late PSE or Nequi
// payment, the list on Transacciones and the plan's page, and the answers of marking one refunded.

import { bilingual } from '@/lib/i18n/locale';

export const refundsCopy = bilingual(
  {
    title: 'Devoluciones pendientes',
    intro:
      'Pagos por PSE o Nequi aprobados después de cancelar o pausar el plan: no renuevan nada y no se pueden anular. Devuélvalos al cliente desde el panel de su procesador (Wompi) y márquelos aquí como devueltos.',
    flag: 'Devolución pendiente',
    reference: 'Referencia del procesador',
    submit: 'Marcar como devuelta',
    marked: 'Marcada como devuelta: {id} ({amount}).',
    already_refunded: 'Este pago ya se marcó como devuelto el {date}.',
    not_due: 'Este pago no tiene una devolución pendiente: solo un pago tardío por PSE o Nequi se marca como devuelto.',
    forbidden: 'Prohibido (403): este pago es de otra cuenta.',
    not_found: 'No hay un pago con este id.',
  },
  {
    title: 'Refunds due',
    intro:
      'PSE or Nequi payments approved after the plan was cancelled or paused: they renew nothing and cannot be voided. Refund them to the customer from your processor’s dashboard (Wompi) and mark them refunded here.',
    flag: 'Refund due',
    reference: 'Processor reference',
    submit: 'Mark as refunded',
    marked: 'Marked as refunded: {id} ({amount}).',
    already_refunded: 'This payment was already marked refunded on {date}.',
    not_due: 'This payment has no refund due: only a late PSE or Nequi payment is marked refunded.',
    forbidden: 'Forbidden (403): this payment belongs to another account.',
    not_found: 'There is no payment with this id.',
  },
);

export type RefundsCopy = ReturnType<typeof refundsCopy>;

