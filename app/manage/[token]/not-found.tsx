// An unknown, forged or expired manage link (docs/customers.md#the-manage-page): a clear page, no data.
import { requestLang } from '@/app/pay/[token]/lang';
import { MANAGE_COPY } from '@/lib/customers/manage-i18n';
import { LANG_TAG } from '@/lib/i18n/locale';
import styles from '@/components/customers/manage.module.css';

export default async function ManageLinkNotFound() {
  const lang = await requestLang();
  const c = MANAGE_COPY[lang];
  return (
    <main className={styles.page} lang={LANG_TAG[lang]}>
      <h1>{c.invalidTitle}</h1>
      <p>{c.invalidBody}</p>
    </main>
  );
}
