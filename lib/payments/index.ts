import { env } from '@/lib/env';
import type { PaymentProcessor } from './processor';
import { createSandboxProcessor } from './sandbox';

export { type ChargeResult, DECLINE_MESSAGES, type DeclineReason, type PaymentProcessor } from './processor';

let processor: PaymentProcessor | undefined;

/** The processor of this deployment: the sandbox until a real one is added (DECISIONS 7). */
export function getPaymentProcessor(): PaymentProcessor {
  processor ??= createSandboxProcessor({ pendingMs: env().SANDBOX_PENDING_MS });
  return processor;
}
