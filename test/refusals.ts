// A bad request to the merchant API as docs/api.md#errors has it: a 400 naming the field, and the
// plan exactly as it was.
import { expect } from 'vitest';
import type { call } from './http';

export async function expectRefusedUnchanged(link: { plan(): Promise<unknown> }, send: () => ReturnType<typeof call>, path: string): Promise<void> {
  const before = await link.plan();
  const res = await send();
  expect(res.status).toBe(400);
  expect(res.json.error.details).toEqual([expect.objectContaining({ path })]);
  expect(await link.plan()).toEqual(before);
}
