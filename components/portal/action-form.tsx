'use client';

import { type ReactNode, startTransition, useActionState, useId } from 'react';
import { type FormState, IDLE } from '@/lib/portal/form-state';
import { CopyButton } from './copy-button';

/** A portal server action as a form posts to it. */
export type FormAction = (state: FormState, form: FormData) => Promise<FormState>;

interface ActionFormProps {
  action: FormAction;
  submit: string;
  pending: string;
  copy: { label: string; copied: string };
  children?: ReactNode;
  /** A warning shown beside the button before submitting (e.g. revoking the last key). */
  warning?: string;
  danger?: boolean;
  /**
   * What the form acts on is gone (a revoked key): no fields and no button, only the result, so
   * the answer of the action that got it there stays on screen after the page is refreshed.
   */
  done?: boolean;
}

/**
 * A portal form posted to a server action: it works before hydration too (progressive
 * enhancement), and Next refuses the action when posted from another origin (CSRF).
 */
export function ActionForm({ action, submit, pending, copy, children, warning, danger, done }: ActionFormProps) {
  const [state, formAction, isPending] = useActionState(action, IDLE);
  const resultId = useId();
  const warningId = useId();
  return (
    <form
      action={formAction}
      // React resets a form once its action has run: a refused value or a wrong password would
      // then clear what the merchant typed. Dispatching the action ourselves keeps the fields;
      // without JavaScript the form still posts to the action.
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget, (event.nativeEvent as SubmitEvent).submitter);
        startTransition(() => formAction(data));
      }}
      className="portal-form"
      aria-describedby={state.status === 'idle' ? undefined : resultId}
    >
      {!done && (
        <>
          {children}
          {warning && (
            <p id={warningId} className="warning">
              {warning}
            </p>
          )}
          <button type="submit" className={danger ? 'danger' : undefined} disabled={isPending} aria-describedby={warning ? warningId : undefined}>
            {isPending ? pending : submit}
          </button>
        </>
      )}
      <div id={resultId} role={state.status === 'error' ? 'alert' : 'status'} className={`result ${state.status}`}>
        {state.message && <p>{state.message}</p>}
        {state.details && (
          <ul>
            {state.details.map((d) => (
              <li key={d}>{d}</li>
            ))}
          </ul>
        )}
        {state.values?.map((v) => (
          <div key={v.label} className="reveal">
            <p>{v.label}</p>
            {v.image && (
              // eslint-disable-next-line @next/next/no-img-element -- a data URL made on the server, shown once
              <img src={v.image} alt={v.label} width={200} height={200} />
            )}
            <pre tabIndex={0}>
              <code>{v.value}</code>
            </pre>
            {v.copy !== false && <CopyButton value={v.value} label={copy.label} copiedLabel={copy.copied} />}
          </div>
        ))}
      </div>
    </form>
  );
}
