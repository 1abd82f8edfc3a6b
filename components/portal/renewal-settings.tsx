// Settings → Processor: the merchant's renewal settings, and the plans waiting for a renewal link to
// be paid with the link to copy (docs/billing.md#renewal-links).
import { Allowed } from '@/components/portal/allowed';
import { CUSTOMER_PORTAL_COPY } from '@/lib/customers/portal-i18n';
import { formatCop } from '@/lib/i18n/format';
import type { Lang } from '@/lib/i18n/locale';
import { ScrollTable } from '@/components/scroll-table';
import { ActionForm, type FormAction } from './action-form';
import { CopyButton } from './copy-button';

interface AwaitingRenewal {
  planId: string;
  description: string;
  customerEmail: string;
  amount: number;
  expiresAt: Date;
  url: string;
}

/** `save` is the page's server action (lib/portal/customers/actions.ts), passed in. */
export function RenewalSettings(props: {
  lang: Lang;
  settings: { reminderDays: number; graceDays: number; renewalLadder: boolean };
  pending: string;
  copy: { label: string; copied: string };
  save: FormAction;
}) {
  const c = CUSTOMER_PORTAL_COPY[props.lang];
  const { settings } = props;
  return (
    <section className="card" aria-labelledby="renewals">
      <h2 id="renewals">{c.renewalsTitle}</h2>
      <p id="renewals-intro">{c.renewalsIntro}</p>
      <Allowed to="business">
        <ActionForm action={props.save} submit={c.renewalsSave} pending={props.pending} copy={props.copy}>
          <label>
            {c.reminderDays}
            <input name="reminderDays" type="number" inputMode="numeric" min={1} max={10} step={1} required defaultValue={settings.reminderDays} />
          </label>
          <label>
            {c.graceDays}
            <input name="graceDays" type="number" inputMode="numeric" min={0} max={15} step={1} required defaultValue={settings.graceDays} />
          </label>
          <label className="checkbox">
            <input name="renewalLadder" type="checkbox" defaultChecked={settings.renewalLadder} /> {c.renewalLadder}
          </label>
        </ActionForm>
      </Allowed>
    </section>
  );
}

export function AwaitingRenewals({ lang, awaiting, copy }: { lang: Lang; awaiting: AwaitingRenewal[]; copy: { label: string; copied: string } }) {
  const c = CUSTOMER_PORTAL_COPY[lang];
  const date = new Intl.DateTimeFormat(lang === 'en' ? 'en-US' : 'es-CO', { dateStyle: 'medium', timeZone: 'America/Bogota' });
  return (
    <section className="card" aria-labelledby="awaiting">
      <h2 id="awaiting">{c.awaitingTitle}</h2>
      {awaiting.length === 0 ? (
        <p>{c.awaitingNone}</p>
      ) : (
        <ScrollTable labelledBy="awaiting" head={[c.awaitingPlan, c.awaitingAmount, c.awaitingExpires, c.awaitingLink]}>
          {awaiting.map((a) => (
            <tr key={a.planId} data-testid="awaiting-renewal">
              <th scope="row">
                <a href={`/portal/activity/plans/${a.planId}`}>{a.description}</a> · {a.customerEmail}
              </th>
              <td>{formatCop(a.amount)}</td>
              <td>{date.format(a.expiresAt)}</td>
              <td style={{ overflowWrap: 'anywhere' }}>
                <code>{a.url}</code> <CopyButton value={a.url} label={copy.label} copiedLabel={copy.copied} />
              </td>
            </tr>
          ))}
        </ScrollTable>
      )}
    </section>
  );
}
