import type { ReactNode } from 'react';

/** A card of a portal page: its heading (`id` labels the section by it), a paragraph under it, then what it holds. */
export function Card({ id, title, intro, children }: { id: string; title: string; intro?: ReactNode; children?: ReactNode }) {
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {intro !== undefined && <p>{intro}</p>}
      {children}
    </section>
  );
}
