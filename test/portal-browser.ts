import type { Page } from 'playwright';
import { totp } from './totp';

// What the hostile journeys (e2e/hostile.spec.ts, test/resilience/hostile.resilience.ts) do in a
// portal page that both need: turn on the second factor as an authenticator app would.

/** Ajustes → Seguridad: the password starts enrolment, the key shown is read and its first code confirms it. Returns the key. */
export async function enrolTotp(page: Page, password: string): Promise<string> {
  await page.goto('/portal/settings/security');
  const start = page.locator('form').filter({ has: page.getByRole('button', { name: 'Activar el segundo factor' }) });
  await start.getByLabel('Contraseña').fill(password);
  await start.getByRole('button', { name: 'Activar el segundo factor' }).click();
  const uri = (await start.locator('pre code').filter({ hasText: 'otpauth://' }).textContent())!;
  const secret = new URL(uri).searchParams.get('secret')!;
  const confirm = page.locator('form').filter({ has: page.getByLabel('Código de 6 dígitos', { exact: true }) });
  await confirm.getByLabel('Código de 6 dígitos', { exact: true }).fill(totp(secret));
  await confirm.getByRole('button', { name: 'Confirmar el código' }).click();
  await page.getByRole('status').filter({ hasText: 'Segundo factor activo.' }).waitFor();
  await page.getByText('Activo: ingresar y los cambios sensibles piden un código').waitFor();
  return secret;
}
