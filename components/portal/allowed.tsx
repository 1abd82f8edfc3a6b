import type { ReactNode } from 'react';
import { memberRole } from '@/lib/portal/request';
import { can, type Permission } from '@/lib/portal/roles';

// A form (or a secret) shown only to a member whose role may `to` (docs/portal.md#members): a
// Lector sees no button that would answer 403. Every action still checks the role on the server.

export async function Allowed({ to, children }: { to: Permission; children: ReactNode }) {
  return can(await memberRole(), to) ? children : null;
}
