// The words of Ajustes → Miembros and of the invitation page (docs/portal.md#members).

import type { Lang } from '@/lib/i18n/locale';

const es = {
  nav: 'Miembros',
  title: 'Miembros',
  intro: 'Quién entra al portal de su comercio y qué puede hacer: Propietario (todo), Administrador (todo menos miembros y dinero), Desarrollador (claves de la API, webhooks y eventos), Lector (solo ver).',
  email: 'Correo',
  name: 'Nombre',
  role: 'Rol',
  twoFactor: 'Segundo factor',
  yes: 'Sí',
  no: 'No',
  pendingTitle: 'Invitaciones pendientes',
  expires: 'Vence',
  inviteTitle: 'Invitar a alguien',
  invite: 'Enviar la invitación',
  invited: 'Invitación enviada. El enlace vale 7 días.',
  changeRole: 'Cambiar el rol',
  roleChanged: 'Rol cambiado.',
  onlyOwners: 'Solo un Propietario invita y cambia roles.',
  invalid: 'Revise el correo y el rol.',
  already_member: 'Ese correo ya tiene una cuenta de ServicePay.',
  last_owner: 'El comercio necesita al menos un Propietario.',
  invalid_token: 'La invitación no es válida, ya se usó o venció (vale 7 días). Pida otra.',
  acceptTitle: 'Aceptar la invitación',
  acceptText: 'Elija su nombre y una contraseña para entrar al portal.',
  accept: 'Crear mi acceso',
};

export type MembersCopy = typeof es;

const en: MembersCopy = {
  nav: 'Members',
  title: 'Members',
  intro: 'Who enters your business’s portal and what they may do: Owner (everything), Admin (all but members and money), Developer (API keys, webhooks and events), Viewer (read only).',
  email: 'E-mail',
  name: 'Name',
  role: 'Role',
  twoFactor: 'Second factor',
  yes: 'Yes',
  no: 'No',
  pendingTitle: 'Pending invitations',
  expires: 'Expires',
  inviteTitle: 'Invite someone',
  invite: 'Send the invitation',
  invited: 'Invitation sent. The link is valid for 7 days.',
  changeRole: 'Change role',
  roleChanged: 'Role changed.',
  onlyOwners: 'Only an Owner invites and changes roles.',
  invalid: 'Check the e-mail and the role.',
  already_member: 'That e-mail already has a ServicePay account.',
  last_owner: 'The business needs at least one Owner.',
  invalid_token: 'The invitation is not valid, was used or has expired (it lasts 7 days). Ask for another.',
  acceptTitle: 'Accept the invitation',
  acceptText: 'Choose your name and a password to enter the portal.',
  accept: 'Create my access',
};

export const membersCopy = (lang: Lang): MembersCopy => (lang === 'en' ? en : es);
