/** What a portal form's server action answers; plain data, rendered by the client form. */
export interface FormState {
  status: 'idle' | 'ok' | 'error';
  message: string;
  /** One line per problem (e.g. each refused allowed domain). */
  details?: string[];
  /** Values shown once, each with a copy button (a new key's secret, a curl line, a reply body). */
  values?: { label: string; value: string; copy?: boolean }[];
}

export const IDLE: FormState = { status: 'idle', message: '' };
