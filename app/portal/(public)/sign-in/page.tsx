// /portal/sign-in
import { AccountForm } from '@/components/portal/account-form';
import { signInAction } from '../../actions';

export default function SignInPage() {
  return <AccountForm kind="signIn" action={signInAction} />;
}
