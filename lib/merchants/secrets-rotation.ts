import type { Db } from '@/db/client';
import { lockSealedSecretsAfter, writeSealedSecrets } from '@/db/queries/merchants';
import { env } from '@/lib/env';
import { openSecret, sealedUnderNewest, sealSecret } from '@/lib/processors/secret-box';
import { inTransaction } from '@/lib/unit-of-work';

// `npm run secrets:rotate` (docs/operations.md#secrets-at-rest): every merchant's sealed values
// re-sealed under the newest of SECRETS_ENCRYPTION_KEYS, a batch of merchants per transaction.
// A value already under the newest key is left as it is, so a second run changes nothing.

const SEALED_COLUMNS = ['wompiSecrets', 'einvoiceSecrets'] as const;

export interface RotationResult {
  merchants: number;
  resealed: number;
}

export async function rotateSealedSecrets(db: Db, { batchSize = 100, settings = env() } = {}): Promise<RotationResult> {
  const result: RotationResult = { merchants: 0, resealed: 0 };
  let after = '';
  for (;;) {
    const rows = await inTransaction(db, async (tx) => {
      const batch = await lockSealedSecretsAfter(tx, after, batchSize);
      for (const row of batch) {
        const patch: Partial<Record<(typeof SEALED_COLUMNS)[number], string>> = {};
        for (const column of SEALED_COLUMNS) {
          const stored = row[column];
          if (stored && !sealedUnderNewest(stored, settings)) patch[column] = sealSecret(openSecret(stored, row.id, settings), row.id, settings);
        }
        if (Object.keys(patch).length) await writeSealedSecrets(tx, row.id, patch);
        result.resealed += Object.keys(patch).length;
      }
      return batch;
    });
    result.merchants += rows.length;
    if (rows.length < batchSize) return result;
    after = rows.at(-1)!.id;
  }
}
