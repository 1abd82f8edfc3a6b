/** What a portal form's server action answers; plain data, rendered by the client form. */
export interface FormState {
  status: 'idle' | 'ok' | 'error';
  message: string;
  /** One line per problem (e.g. each refused allowed domain). */
  details?: string[];
  /** Values shown once, each with a copy button (a new key's secret, a curl line, a reply body); `image` (a data URL, e.g. a QR code) is shown above its value. */
  values?: { label: string; value: string; copy?: boolean; image?: string }[];
}

export const IDLE: FormState = { status: 'idle', message: '' };

/** A form field as text; a missing field or a file is the empty string. */
export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}

export const okState = (message: string, more: Partial<FormState> = {}): FormState => ({ status: 'ok', message, ...more });
export const errorState = (message: string, details?: string[]): FormState => ({ status: 'error', message, details });
