// What the account e-mails say (lib/email/account.ts renders and queues them): in Spanish, to the
// merchant's people, addressed as "usted" like the portal.

import type { AccountEmail } from '@/lib/email/account';

const hello = (name: string) => `Hola, ${name}:`;
const ignore = 'Si no fue usted, ignore este correo: nada cambia sin el enlace.';

export const accountEmails = {
  verify: (name: string, url: string): AccountEmail => ({
    subject: 'Confirme su correo para ServicePay',
    lines: [hello(name), 'Confirme este correo para abrir su portal de ServicePay. El enlace vale 24 horas.', ignore],
    action: { label: 'Confirmar mi correo', url },
  }),
  passwordReset: (name: string, url: string): AccountEmail => ({
    subject: 'Restablezca su contraseña de ServicePay',
    lines: [hello(name), 'Pidieron restablecer la contraseña de su cuenta. El enlace vale 1 hora y sirve una sola vez; al usarlo se cierran todas sus sesiones.', ignore],
    action: { label: 'Elegir una contraseña nueva', url },
  }),
  passwordChanged: (name: string): AccountEmail => ({
    subject: 'Su contraseña de ServicePay cambió',
    lines: [hello(name), 'La contraseña de su cuenta acaba de cambiar. Si no fue usted, restablézcala ya y escriba a soporte.'],
  }),
  existingSignUp: (name: string, url: string): AccountEmail => ({
    subject: 'Intentaron crear una cuenta con su correo',
    lines: [hello(name), 'Alguien intentó crear una cuenta de ServicePay con este correo, que ya tiene una. Si fue usted, ingrese con su contraseña o restablézcala.'],
    action: { label: 'Restablecer la contraseña', url },
  }),
  /** To every owner when a money or integration setting changes (lib/portal/reauth.ts). */
  settingChanged: (name: string, merchantName: string, what: string, by: string, ip: string | null): AccountEmail => ({
    subject: `Cambio de seguridad en ${merchantName}`,
    lines: [
      hello(name),
      `${by} cambió ${what} de ${merchantName}${ip ? ` desde la dirección ${ip}` : ''}.`,
      'Si no lo reconoce, ingrese al portal, cambie su contraseña, revise el Registro de auditoría y escriba a soporte.',
    ],
  }),
  invitation: (merchantName: string, inviter: string, role: string, url: string): AccountEmail => ({
    subject: `Invitación a ${merchantName} en ServicePay`,
    lines: [`${inviter} le invitó a ${merchantName} en ServicePay con el rol ${role}. La invitación vale 7 días.`, 'Si no la esperaba, ignore este correo.'],
    action: { label: 'Aceptar la invitación', url },
  }),
};
