// Settings → Webhooks: which lifecycle events the merchant receives (docs/customers.md#lifecycle-events).
import { CUSTOMER_PORTAL_COPY, LIFECYCLE_EVENT_TYPES } from '@/lib/customers/portal-i18n';
import type { Lang } from '@/lib/i18n/locale';
import { ActionForm, type FormAction } from './action-form';

/** `save` is the page's server action (lib/portal/webhooks/actions.ts), passed in. */
export function WebhookEventChoice({ lang, chosen, pending, copy, save }: { lang: Lang; chosen: readonly string[]; pending: string; copy: { label: string; copied: string }; save: FormAction }) {
  const c = CUSTOMER_PORTAL_COPY[lang];
  return (
    <section className="card" aria-labelledby="lifecycle-events">
      <h2 id="lifecycle-events">{c.eventsTitle}</h2>
      <p id="lifecycle-events-intro">{c.eventsIntro}</p>
      <ActionForm action={save} submit={c.save} pending={pending} copy={copy}>
        {/* min-width 0 and wrapping anywhere: the long event names must not widen the page at 360 px. */}
        <fieldset aria-describedby="lifecycle-events-intro" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
          <legend>{c.eventsTitle}</legend>
          {LIFECYCLE_EVENT_TYPES.map((type) => (
            <label key={type} className="checkbox" style={{ display: 'block', overflowWrap: 'anywhere' }}>
              <input type="checkbox" name="webhookEvents" value={type} defaultChecked={chosen.includes(type)} /> <code>{type}</code> · {c.events[type]}
            </label>
          ))}
        </fieldset>
      </ActionForm>
    </section>
  );
}
