'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useEffect, useRef } from 'react';

interface NavGroup {
  label: string;
  links: { href: string; text: string }[];
}

/**
 * The portal's sections in groups; the one showing is marked for screen readers and the eye. On a
 * phone the menu (a `<details>`, components/portal/portal-shell.tsx) closes once a link is followed.
 */
export function PortalNav({ label, groups }: { label: string; groups: NavGroup[] }) {
  const pathname = usePathname();
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    ref.current?.closest('details')?.removeAttribute('open');
  }, [pathname]);
  return (
    <nav aria-label={label} ref={ref} className="portal-nav">
      {groups.map((group) => (
        <div key={group.label} className="portal-nav-group">
          <p className="portal-nav-label" id={`nav-${group.label}`}>
            {group.label}
          </p>
          <ul aria-labelledby={`nav-${group.label}`}>
            {group.links.map((l) => (
              <li key={l.href}>
                <Link href={l.href} aria-current={pathname === l.href || pathname.startsWith(`${l.href}/`) ? 'page' : undefined}>
                  {l.text}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}
