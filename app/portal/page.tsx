// /portal: the activity when signed in, else the sign-in page (the activity redirects there).
import { redirect } from 'next/navigation';

export default function PortalHome() {
  redirect('/portal/activity');
}
