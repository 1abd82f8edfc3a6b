// GET /demo: a pretend merchant page, to see the widget (docs/checkout.md#embedding) from both sides at once:
// create a link as the demo merchant, pay in the modal with a sandbox card, and compare the
// widget's callback, the plan status and the webhook event.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import Script from 'next/script';
import { DemoShop } from '@/components/demo/demo-shop';
import { createDemoLinkAction, demoSnapshotAction } from '@/lib/portal/demo/actions';
import { demoAvailable } from '@/lib/portal/demo-merchant';
import { DEMO_PLAN } from '@/lib/portal/demo-shop';

export const dynamic = 'force-dynamic';

export const metadata: Metadata = { title: 'Demo del widget · ServicePay' };

export default function DemoPage() {
  if (!demoAvailable()) notFound();
  return (
    <main className="page demo">
      <h1>Demo: el widget en la página de un comercio</h1>
      <p>
        Esta página hace de tienda. Su servidor crea un link con el comercio de demostración; el botón abre el pago de
        ServicePay en una ventana modal con <code>ServicePay.open()</code>. Paga con una tarjeta de prueba: <code>4242 4242 4242 4242</code>{' '}
        aprobada, <code>4111 1111 1111 1111</code> rechazada, <code>4000 0000 0000 0051</code> pendiente y luego aprobada (cualquier
        fecha futura y cualquier CVC de 3 dígitos).
      </p>
      <DemoShop planName={DEMO_PLAN.description} amount={DEMO_PLAN.amount} actions={{ createLink: createDemoLinkAction, snapshot: demoSnapshotAction }} />
      <Script src="/widget.js" strategy="afterInteractive" />
    </main>
  );
}
