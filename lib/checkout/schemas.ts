import { z } from 'zod';
import { type CardField, type CardProblem, cardProblems, parseCard } from '@/lib/payments/card';

const PROBLEM_MESSAGES: Record<CardProblem, string> = {
  required: 'is required',
  invalid_number: 'is not a valid card number',
  invalid_expiry: 'must be a month and year as MM/YY',
  expired: 'is in the past: the card has expired',
  invalid_cvc: 'must be the 3 digits on the back of the card',
  invalid_holder: 'must be the name printed on the card',
};

const field = z.string({ error: 'must be a string' }).max(100, 'must be at most 100 characters');

/** The checkout form's card (DECISIONS 14). Anything else sent (an amount, a plan) is dropped. */
export const cardPaymentBodySchema = z
  .object({ cardNumber: field, cardExpiry: field, cardCvc: field, cardHolder: field })
  .superRefine((input, ctx) => {
    for (const [path, problem] of Object.entries(cardProblems(input)) as [CardField, CardProblem][]) {
      ctx.addIssue({ code: 'custom', path: [path], message: PROBLEM_MESSAGES[problem] });
    }
  })
  .transform((input) => parseCard(input)!);
