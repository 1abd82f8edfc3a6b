'use server';

// Ajustes → API's server actions (docs/portal.md): API keys and the pinned API version, each on
// the signed-in user's merchant only; Next refuses one posted from another origin.

import { revalidatePath } from 'next/cache';
import { getDb } from '@/db/client';
import { env } from '@/lib/env';
import { createKey, revokeKey } from '@/lib/portal/api-keys';
import { savePinnedVersion } from '@/lib/portal/api-version';
import { curlExample } from '@/lib/portal/curl';
import { errorState as error, type FormState, formText as text, okState as ok } from '@/lib/portal/form-state';
import { tellOwners } from '@/lib/portal/reauth';
import { signedIn, signedInRecently } from '@/lib/portal/request';

export async function createKeyAction(_: FormState, form: FormData): Promise<FormState> {
  const user = await signedInRecently('api_keys');
  if (user.refused) return user.refused;
  const { merchantId, t, actor } = user;
  const db = await getDb();
  const readOnly = form.get('readOnly') === 'on';
  const { apiKey, apiSecret } = await createKey(db, merchantId, actor, { readOnly });
  await tellOwners(db, merchantId, 'api_key', actor);
  revalidatePath('/portal/settings/api');
  return ok(t.api.created_ok, {
    values: [
      { label: t.api.key, value: apiKey },
      { label: t.api.secret, value: apiSecret },
      { label: t.api.example, value: curlExample(env().APP_URL, apiKey, apiSecret) },
    ],
  });
}

export async function revokeKeyAction(_: FormState, form: FormData): Promise<FormState> {
  const { merchantId, t, actor, refused } = await signedIn('api_keys');
  if (refused) return refused;
  const result = await revokeKey(await getDb(), merchantId, text(form, 'key'), actor);
  revalidatePath('/portal/settings/api');
  if (!result) return error(t.api.revoke_missing);
  return ok(result.activeLeft === 0 ? t.api.revoked_last : t.api.revoked_ok);
}

export async function saveApiVersionAction(_: FormState, form: FormData): Promise<FormState> {
  const { merchantId, t, actor, refused } = await signedIn('api_keys');
  if (refused) return refused;
  if (!(await savePinnedVersion(await getDb(), merchantId, text(form, 'apiVersion'), actor))) return error(t.api.versionProblem);
  revalidatePath('/portal/settings/api');
  return ok(t.api.versionSaved);
}
