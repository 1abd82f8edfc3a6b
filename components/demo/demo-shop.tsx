'use client';

// The pretend merchant page of /demo: its own buttons, and three panels side by side with what
// the merchant learns from the widget's callbacks, the plan status and the webhook event.

import { useState } from 'react';
import { formatCop } from '@/lib/i18n/format';
import type { DemoResult, DemoSnapshot } from '@/lib/portal/demo-shop';
import type { PaymentLink } from '@/lib/plans/schemas';

const json = (value: unknown) => JSON.stringify(value, null, 2);

function prettyBody(body: string): string {
  try {
    return json(JSON.parse(body));
  } catch {
    return body;
  }
}

/** The page's server actions (lib/portal/demo/actions.ts), passed in: a component never imports app/. */
interface DemoShopActions {
  createLink: () => Promise<DemoResult<PaymentLink>>;
  snapshot: (planId: string) => Promise<DemoResult<DemoSnapshot>>;
}

export function DemoShop({ planName, amount, actions }: { planName: string; amount: number; actions: DemoShopActions }) {
  const [link, setLink] = useState<PaymentLink | null>(null);
  const [callbacks, setCallbacks] = useState<string[]>([]);
  const [snapshot, setSnapshot] = useState<DemoSnapshot | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function refresh(planId: string) {
    const result = await actions.snapshot(planId);
    if (result.ok) setSnapshot(result.value);
    else setProblem(result.error);
  }

  async function createLink() {
    setBusy(true);
    setProblem(null);
    const result = await actions.createLink();
    setBusy(false);
    if (!result.ok) return setProblem(result.error);
    setLink(result.value);
    setCallbacks([]);
    await refresh(result.value.subscriptionPlanId);
  }

  // Synchronously inside the click: the modal opens in the customer's gesture.
  function pay() {
    if (!link || !window.ServicePay) return;
    const record = (name: string, payload?: unknown) => {
      setCallbacks((all) => [...all, payload === undefined ? `${name}()` : `${name}(${json(payload)})`]);
      void refresh(link.subscriptionPlanId);
    };
    window.ServicePay.open({
      token: link.token,
      onSuccess: (result) => record('onSuccess', result),
      onError: (error) => record('onError', error),
      onClose: () => record('onClose'),
    });
  }

  const events = snapshot?.webhookEvents ?? [];
  return (
    <>
      <section className="card" aria-labelledby="shop">
        <h2 id="shop">{planName}</h2>
        <p>
          {formatCop(amount)} al mes, cobrado con ServicePay.
        </p>
        <p className="demo-actions">
          <button type="button" onClick={createLink} disabled={busy}>
            {link ? 'Crear otro link' : '1. Crear link de pago'}
          </button>
          <button type="button" onClick={pay} disabled={!link}>
            2. Pagar suscripción
          </button>
        </p>
        {link ? (
          <p>
            Link creado: <code>{link.token}</code> (plan <code>{link.subscriptionPlanId}</code>)
          </p>
        ) : null}
        {problem ? <p role="alert">{problem}</p> : null}
      </section>
      <div className="demo-panels">
        <section className="card" aria-labelledby="callbacks">
          <h2 id="callbacks">Callbacks del widget</h2>
          <pre data-testid="callbacks">{callbacks.length ? callbacks.join('\n') : 'Ninguno todavía.'}</pre>
        </section>
        <section className="card" aria-labelledby="status">
          <h2 id="status">Estado del plan</h2>
          <p>
            <code>GET /merchants/plans/{'{id}'}/status</code>
          </p>
          <pre data-testid="plan-status">{snapshot ? json(snapshot.status) : 'Crea un link.'}</pre>
          {link ? (
            <button type="button" onClick={() => refresh(link.subscriptionPlanId)}>
              Actualizar
            </button>
          ) : null}
        </section>
        <section className="card" aria-labelledby="webhook">
          <h2 id="webhook">Evento webhook</h2>
          {events.length === 0 ? <p>Ninguno todavía: se registra uno por cada resultado final de un pago.</p> : null}
          {events.map((event) => (
            <div key={event.id}>
              <p>
                <code>{event.type}</code> ·{' '}
                {event.attempts.length
                  ? event.attempts.map((a) => (a.ok ? `entregado (${a.statusCode})` : `falló (${a.statusCode ?? a.error})`)).join(', ')
                  : snapshot?.webhookUrl
                    ? 'registrado; envío pendiente'
                    : 'registrado; el comercio no tiene URL de webhook configurada'}
              </p>
              <pre data-testid="webhook-event">{prettyBody(event.body)}</pre>
            </div>
          ))}
        </section>
      </div>
    </>
  );
}
