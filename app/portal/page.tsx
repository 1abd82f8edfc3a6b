// /portal: the overview when signed in, else the sign-in page (the overview redirects there).
import { redirect } from 'next/navigation';

export default function PortalHome() {
  redirect('/portal/overview');
}
