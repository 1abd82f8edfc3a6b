import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** No serious or critical violation from axe in the page as it stands. The one check every journey uses. */
export async function expectAccessible(page: Page) {
  // Next streams a page's metadata after its body (its <title> arrives a moment later, and again
  // after a server action re-renders the page); axe run in between once found no <title> in CI.
  // A page that has none at all still fails here, on this wait.
  await expect(page).toHaveTitle(/\S/);
  const { violations } = await new AxeBuilder({ page }).analyze();
  const blocking = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ rule: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
  expect(blocking).toEqual([]);
}
