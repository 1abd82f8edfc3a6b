'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';

/** The portal's sections; the one showing is marked for screen readers and the eye. */
export function PortalNav({ label, links }: { label: string; links: { href: string; text: string }[] }) {
  const pathname = usePathname();
  return (
    <nav aria-label={label}>
      <ul>
        {links.map((l) => (
          <li key={l.href}>
            <Link href={l.href} aria-current={pathname === l.href || pathname.startsWith(`${l.href}/`) ? 'page' : undefined}>
              {l.text}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
