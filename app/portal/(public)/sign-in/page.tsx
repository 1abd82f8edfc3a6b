// /portal/sign-in
import { AccountForm } from '@/components/portal/account-form';
import { signInAction } from '@/lib/portal/accounts/actions';

export default function SignInPage() {
  return <AccountForm kind="signIn" action={signInAction} />;
}
