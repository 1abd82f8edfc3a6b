import Link from 'next/link';

export default function HomePage() {
  return (
    <main className="page">
      <h1>ServicePay</h1>
      <p>
        Links de pago y suscripciones en pesos colombianos. Tu backend crea un link; tu cliente paga en nuestra página
        segura; tú recibes el resultado por webhook firmado.
      </p>
      <section className="card" aria-labelledby="start">
        <h2 id="start">Empieza en un minuto</h2>
        <ol>
          <li>
            Crea un link con <code>POST /merchants/subscription-link</code> y tus credenciales de prueba.
          </li>
          <li>
            Envía a tu cliente a la URL <code>/pay/&lt;token&gt;</code> que te devolvemos.
          </li>
          <li>
            Consulta el estado con <code>GET /merchants/plans/&lt;id&gt;/status</code> o espera el webhook.
          </li>
        </ol>
        <p>
          ¿Quieres que tu cliente pague sin salir de tu sitio? Mira el widget en la <Link href="/demo">demo de una tienda</Link>:
          crea un link, paga con una tarjeta de prueba y compara el callback, el estado del plan y el webhook.
        </p>
        <p>
          Estado del servicio: <a href="/api/health">/api/health</a>
        </p>
      </section>
    </main>
  );
}
