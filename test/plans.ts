// A plan as tests read it back and act on it through the merchant API: its row, its charges in
// the order they were made, a link created over HTTP, a call to one of its routes.

import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { subscriptionPlans, transactions } from '@/db/schema';
import { POST as createLink } from '@/app/merchants/subscription-link/route';
import { call, type Handler } from './http';
import { linkBody, type TestMerchant } from './merchants';

export const planRow = async (db: Db, planId: string) => (await db.select().from(subscriptionPlans).where(eq(subscriptionPlans.id, planId)))[0]!;

/** The plan's charges, oldest first. */
export const planTransactions = (db: Db, planId: string) => db.select().from(transactions).where(eq(transactions.planId, planId)).orderBy(transactions.id);

/** POST /merchants/subscription-link as the merchant, with linkBody's defaults under `plan`. */
export const postLink = (merchant: TestMerchant, plan: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  call(createLink, { path: '/merchants/subscription-link', headers: { ...merchant.headers, ...headers }, body: linkBody({ plan }) });

/** A POST to one of the plan's routes (cancel, pause, …) as its merchant. */
export const postToPlan = (
  route: Handler<{ id: string }>,
  link: { subscriptionPlanId: string; merchant: TestMerchant },
  body?: unknown,
  headers: Record<string, string> = {},
) => call(route, { method: 'POST', headers: { ...link.merchant.headers, ...headers }, params: { id: link.subscriptionPlanId }, body });
