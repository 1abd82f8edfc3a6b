// The embeddable script (docs/checkout.md#embedding), built into public/widget.js: a modal <dialog>
// around /pay/<token>?embed=1, no dependencies, under 2 KB gzip. A message counts only from our
// origin and this modal's iframe, and `approved` is sent only once the server has it.
import { CHECKOUT_TOKEN_PATTERN, type CheckoutState, EMBED_MESSAGE_TYPE, EMBED_ORIGIN_PARAM, EMBED_PARAM } from './protocol';
import type { ServicePayError, ServicePayErrorCode, ServicePayHandle, ServicePayOpenOptions } from './types';

interface Modal {
  options: ServicePayOpenOptions;
  handle: ServicePayHandle;
  dialog: HTMLDialogElement;
  frame: HTMLIFrameElement;
  loading: HTMLElement;
  button: HTMLButtonElement;
  opener: Element | null;
  overflow: string;
  loaded?: boolean;
  busy?: boolean;
  /** Callbacks already made (each success, error and close fires once). */
  fired: Record<string, 1>;
}

const MESSAGES: Record<ServicePayErrorCode, string> = {
  invalid_token: 'open() needs the 10-character token of a payment link',
  not_found: 'Unknown token, or this origin is not in allowedDomains',
  session_expired: 'The payment link has expired',
  already_paid: 'The payment link has already been paid',
  unavailable: 'The subscription no longer accepts payments',
  declined: 'The card was declined',
  payment_error: 'The processor failed to handle the payment',
};

/** Checkout states that end in onError; declined and error only with a settled payment. */
const ERROR_OF_STATE: Partial<Record<CheckoutState, ServicePayErrorCode>> = {
  expired: 'session_expired',
  paid: 'already_paid',
  unavailable: 'unavailable',
  declined: 'declined',
  error: 'payment_error',
};

// How long a frame that has loaded may stay silent: its first message is sent before its `load`,
// but the two may travel different ways between processes.
const SILENT_LOAD_MS = 1000;

let current: Modal | null = null;

function css<E extends HTMLElement>(element: E, text: string): E {
  // CSSOM, not a style attribute: allowed by a merchant's CSP without 'unsafe-inline'.
  element.style.cssText = text;
  return element;
}

function once(modal: Modal, key: string, callback: () => void) {
  if (modal.fired[key]) return;
  modal.fired[key] = 1;
  callback();
}

function fail(modal: Pick<Modal, 'options'>, code: ServicePayErrorCode, transactionId?: string) {
  const error: ServicePayError = { code, message: MESSAGES[code] };
  if (transactionId) error.transactionId = transactionId;
  modal.options.onError?.(error);
}

function teardown(modal: Modal) {
  current = null;
  modal.dialog.close();
  modal.dialog.remove();
  document.documentElement.style.overflow = modal.overflow;
  (modal.opener as HTMLElement | null)?.focus?.();
}

/** A close asked for by the customer (or by `close()`): refused while a payment is processing. */
function requestClose(modal: Modal, byCustomer: boolean) {
  if (modal.busy || current !== modal) return;
  teardown(modal);
  if (byCustomer) once(modal, 'close', () => modal.options.onClose?.());
}

function onMessage(event: MessageEvent) {
  const modal = current;
  const data = event.data;
  if (!modal || event.origin !== app || event.source !== modal.frame.contentWindow || data?.type !== EMBED_MESSAGE_TYPE) return;
  if (!modal.loaded) {
    modal.loaded = true;
    modal.loading.remove();
    modal.frame.style.visibility = '';
  }
  if (data.action === 'close') return requestClose(modal, true);
  const { state, transactionId: id, subscriptionPlanId } = data as { state: CheckoutState; transactionId?: string; subscriptionPlanId: string };
  modal.busy = state === 'processing';
  modal.button.setAttribute('aria-disabled', String(modal.busy));
  if (state === 'approved' && id) {
    once(modal, 'success', () => modal.options.onSuccess?.({ transactionId: id, subscriptionPlanId, status: 'APPROVED' }));
  }
  const code = ERROR_OF_STATE[state];
  if (code && (id || (state !== 'declined' && state !== 'error'))) once(modal, state + id, () => fail(modal, code, id));
}

function open(options: ServicePayOpenOptions): ServicePayHandle {
  if (current) return current.handle;
  const token = options?.token;
  if (!CHECKOUT_TOKEN_PATTERN.test(token)) {
    // After open() returns, so a handler may use the handle it got.
    queueMicrotask(() => fail({ options: options || {} }, 'invalid_token'));
    return { close() {} };
  }
  const en = /^en\b/i.test(document.documentElement.lang);
  const phone = innerWidth <= 480;
  const make = <K extends keyof HTMLElementTagNameMap>(tag: K, style: string) => css(document.createElement(tag), style);

  const dialog = make(
    'dialog',
    'position:fixed;inset:0;width:100%;height:100%;max-width:none;max-height:none;margin:0;padding:0;border:0;' +
      'background:rgba(15,23,42,.6);display:flex;align-items:center;justify-content:center;font:16px system-ui,sans-serif',
  );
  dialog.setAttribute('aria-modal', 'true');
  dialog.setAttribute('aria-label', en ? 'Secure payment' : 'Pago seguro');
  const panel = make(
    'div',
    `display:flex;flex-direction:column;background:#fff;overflow:hidden;${phone ? 'width:100%;height:100%' : 'width:min(100%,480px);height:min(100%,760px);border-radius:12px'}`,
  );
  const bar = make('div', 'display:flex;justify-content:flex-end;padding:4px;border-bottom:1px solid #e2e8f0');
  const button = make('button', 'font:inherit;padding:8px 14px;border:0;border-radius:8px;background:#f1f5f9;color:#0f172a;cursor:pointer');
  button.type = 'button';
  button.textContent = en ? 'Close' : 'Cerrar';
  const loading = make('p', 'margin:auto;color:#475569');
  loading.setAttribute('role', 'status');
  loading.textContent = en ? 'Loading…' : 'Cargando…';
  const frame = make('iframe', 'flex:1;width:100%;border:0;visibility:hidden');
  frame.title = en ? 'ServicePay checkout' : 'Pago con ServicePay';
  frame.src = `${app}/pay/${token}?${EMBED_PARAM}=1&${EMBED_ORIGIN_PARAM}=${encodeURIComponent(location.origin)}${en ? '&lang=en' : ''}`;

  const modal: Modal = {
    options,
    handle: { close: () => requestClose(modal, false) },
    dialog,
    frame,
    loading,
    button,
    opener: document.activeElement,
    overflow: document.documentElement.style.overflow,
    fired: {},
  };
  button.onclick = () => requestClose(modal, true);
  dialog.onclick = (event) => event.target === dialog && requestClose(modal, true);
  dialog.oncancel = (event) => {
    event.preventDefault();
    requestClose(modal, true);
  };
  frame.onload = () =>
    setTimeout(() => {
      if (current === modal && !modal.loaded) {
        teardown(modal);
        fail(modal, 'not_found');
      }
    }, SILENT_LOAD_MS);

  bar.append(button);
  panel.append(bar, loading, frame);
  dialog.append(panel);
  document.body.append(dialog);
  document.documentElement.style.overflow = 'hidden';
  current = modal;
  dialog.showModal();
  button.focus();
  return modal.handle;
}

/** ServicePay's origin: where this script was loaded from. */
const app = new URL((document.currentScript as HTMLScriptElement | null)?.src || location.href).origin;

// Loaded twice, the first copy stays: one modal at a time, one message listener.
if (!window.ServicePay) {
  window.ServicePay = { open };
  addEventListener('message', onMessage);
  // Escape is ours to decide (the dialog's own close is refused while a payment is processing).
  addEventListener(
    'keydown',
    (event) => {
      if (event.key === 'Escape' && current) {
        event.preventDefault();
        requestClose(current, true);
      }
    },
    true,
  );
}
