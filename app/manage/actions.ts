'use server';

// The customer page's actions (docs/customers.md#the-manage-page). Plain form posts: they work
// without JavaScript, and Next refuses one posted from another origin. Each checks the token
// again; the answer is a redirect back to the page with what happened (never a card value).

import { redirect } from 'next/navigation';
import { getDb } from '@/db/client';
import { ApiError } from '@/lib/api/errors';
import { MANAGE_TOKEN_PATTERN } from '@/lib/customers/manage-links';
import { cancelByCustomer, REPLACEMENT_UNAVAILABLE, replacePaymentMethod } from '@/lib/customers/self-service';
import { merchantProcessors } from '@/lib/payments';
import { parseCheckoutPayment } from '@/lib/checkout/payment-schemas';
import { parseCard } from '@/lib/payments/card';
import type { Consent, PaymentInstrument } from '@/lib/payments/processor';

const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};

function back(token: string, { lang, ...rest }: Record<string, string>): never {
  redirect(`/manage/${token}?${new URLSearchParams({ ...rest, ...(lang === 'en' ? { lang } : {}) })}`);
}

function tokenOf(form: FormData): string {
  const token = field(form, 'token');
  // An unknown or expired token is answered by the page itself (no data shown).
  if (!MANAGE_TOKEN_PATTERN.test(token)) redirect('/manage/invalid');
  return token;
}

function problemOf(error: unknown): string {
  if (error instanceof ApiError) return error.code === 'not_found' ? 'invalid' : 'conflict';
  throw error;
}

function tokenizedOf(form: FormData): { instrument: PaymentInstrument; consent?: Consent } | null {
  const body = Object.fromEntries(['method', 'cardToken', 'cardBrand', 'cardLast4', 'nequiToken', 'phoneNumber', 'acceptanceToken', 'personalDataToken'].map((name) => [name, form.get(name) ?? undefined]));
  try {
    const parsed = parseCheckoutPayment(body);
    const tokenized = parsed.instrument.type === 'CARD_TOKEN' || parsed.instrument.type === 'NEQUI_TOKEN';
    return tokenized && parsed.consent ? parsed : null;
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

export async function cancelAction(form: FormData): Promise<void> {
  const token = tokenOf(form);
  const lang = field(form, 'lang');
  let problem: string | null = null;
  try {
    await cancelByCustomer(await getDb(), token);
  } catch (error) {
    problem = problemOf(error);
  }
  back(token, problem ? { problem, lang } : { done: 'cancelled', lang });
}

export async function replaceMethodAction(form: FormData): Promise<void> {
  const token = tokenOf(form);
  const lang = field(form, 'lang');
  let instrument: PaymentInstrument;
  let consent: Consent | undefined;
  if (field(form, 'cardToken') || field(form, 'nequiToken')) {
    // With Wompi the browser tokenized the method (docs/customers.md): only its token and both
    // acceptance tokens come here, checked as the checkout checks them.
    const tokenized = tokenizedOf(form);
    if (!tokenized) back(token, { problem: field(form, 'method') === 'NEQUI' ? 'nequi' : 'card', lang });
    ({ instrument, consent } = tokenized);
  } else if (field(form, 'method') === 'NEQUI') {
    const phone = field(form, 'phoneNumber').replace(/\D/g, '');
    if (phone.length !== 10) back(token, { problem: 'nequi', lang });
    instrument = { type: 'NEQUI', phoneNumber: phone };
  } else {
    const card = parseCard({ cardNumber: field(form, 'cardNumber'), cardExpiry: field(form, 'cardExpiry'), cardCvc: field(form, 'cardCvc'), cardHolder: field(form, 'cardHolder') });
    if (!card) back(token, { problem: 'card', lang });
    instrument = { type: 'CARD', card };
  }
  let outcome: Record<string, string>;
  try {
    const db = await getDb();
    const result = await replacePaymentMethod(db, merchantProcessors(db), { token, instrument, consent });
    outcome = result.declined ? { problem: 'declined' } : { done: 'method' };
  } catch (error) {
    outcome = { problem: error instanceof ApiError && error.message === REPLACEMENT_UNAVAILABLE ? 'unavailable' : problemOf(error) };
  }
  back(token, { ...outcome, lang });
}
