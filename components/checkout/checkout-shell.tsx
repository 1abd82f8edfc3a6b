import type { ReactNode, Ref } from 'react';
import type { CheckoutState } from '@/lib/widget/protocol';
import styles from './checkout.module.css';

// The frame of every checkout state. No hooks: the server pages render it, and so does the client
// form, which owns the state once the customer starts paying. Nothing sits below the card, so a
// card that gets shorter (the form gives way to a receipt) moves nothing else on the page.

/** docs/checkout.md#hosted-page: the page's root element carries one of these as `data-checkout-state`. */
export type { CheckoutState } from '@/lib/widget/protocol';

export type Tone = 'info' | 'progress' | 'success' | 'warning' | 'danger';

export interface ShellCopy {
  secure: string;
  poweredBy: string;
}

/**
 * `data-transaction-id` is the processor's id of the payment the state reports (approved, declined
 * or failed), read by the embedded page's bridge to the widget (docs/checkout.md#embedding).
 */
export function CheckoutShell(props: { state?: CheckoutState; transactionId?: string; lang: string; copy: ShellCopy; children: ReactNode }) {
  return (
    <div className={styles.shell} data-checkout-state={props.state} data-transaction-id={props.transactionId} lang={props.lang}>
      <header className={styles.topbar}>
        <span className={styles.secure}>
          <LockIcon />
          {props.copy.secure}
        </span>
        <span>{props.copy.poweredBy}</span>
      </header>
      <main className={styles.card}>{props.children}</main>
    </div>
  );
}

function LockIcon() {
  return (
    <svg className={styles.icon} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M8 1a3.5 3.5 0 0 0-3.5 3.5V6H4a1.5 1.5 0 0 0-1.5 1.5v6A1.5 1.5 0 0 0 4 15h8a1.5 1.5 0 0 0 1.5-1.5v-6A1.5 1.5 0 0 0 12 6h-.5V4.5A3.5 3.5 0 0 0 8 1Zm2 5H6V4.5a2 2 0 1 1 4 0V6Z"
      />
    </svg>
  );
}

const TONE_PATHS: Record<Tone, string> = {
  info: 'M8 1a7 7 0 1 0 0 14A7 7 0 0 0 8 1Zm.75 10.5h-1.5V7h1.5v4.5ZM8 5.75a.9.9 0 1 1 0-1.8.9.9 0 0 1 0 1.8Z',
  progress: '',
  success: 'M8 1a7 7 0 1 0 0 14A7 7 0 0 0 8 1Zm-1 10.06L3.94 8l1.06-1.06 2 2 4-4L12.06 6 7 11.06Z',
  warning: 'M8 1a7 7 0 1 0 0 14A7 7 0 0 0 8 1Zm.75 10.75h-1.5v-1.5h1.5v1.5Zm0-3h-1.5V4.25h1.5v4.5Z',
  danger: 'M8 1a7 7 0 1 0 0 14A7 7 0 0 0 8 1Zm.75 10.75h-1.5v-1.5h1.5v1.5Zm0-3h-1.5V4.25h1.5v4.5Z',
};

/** The state's outcome message: one `role="status"` element, present from the first render. */
export function StatusMessage({
  ref,
  tone,
  title,
  heading,
  children,
}: {
  ref?: Ref<HTMLDivElement>;
  tone: Tone;
  title?: string;
  /** The page's main heading (a state with nothing else to show). */
  heading?: boolean;
  children?: ReactNode;
}) {
  const Title = heading ? 'h1' : 'p';
  return (
    <div ref={ref} role="status" tabIndex={-1} className={`${styles.status} ${styles[tone]}`}>
      {title ? (
        <Title className={styles.statusTitle}>
          {tone === 'progress' ? (
            <span className={styles.spinner} aria-hidden="true" />
          ) : (
            <svg className={styles.icon} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
              <path fill="currentColor" d={TONE_PATHS[tone]} />
            </svg>
          )}
          {title}
        </Title>
      ) : null}
      {children}
    </div>
  );
}
