// /portal/sign-up: a new merchant and its first user.
import { AccountForm } from '@/components/portal/account-form';
import { signUpAction } from '@/lib/portal/accounts/actions';

export default function SignUpPage() {
  return <AccountForm kind="signUp" action={signUpAction} />;
}
