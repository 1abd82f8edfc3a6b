import type { Db } from '@/db/client';
import { getMerchant } from '@/db/queries/merchants';
import { merchantRangeWarnings, rangeWarningText } from '@/lib/invoices/notices';
import type { Lang } from '@/lib/i18n/locale';
import { inTestMode, processorOf } from './processor-page';

// What frames every signed-in portal page besides its own content (app/portal/(app)/layout.tsx):
// the test-mode badge, the suspension notice and the e-invoicing banners, from one read of the
// merchant's row.

export async function loadPortalFrame(db: Db, merchantId: string, lang: Lang) {
  const merchant = await getMerchant(db, merchantId);
  return {
    testMode: inTestMode(processorOf(merchant)),
    suspended: merchant?.status !== 'ACTIVE',
    notices: merchant ? merchantRangeWarnings(merchant).map((warning) => rangeWarningText(warning, lang)) : [],
  };
}
