import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
import { expect } from './fixtures';

// What the billing journeys share: dates as the Spanish pages and e-mails write them, and the text
// of a receipt PDF. Each journey moves the test clock itself: playwright.config.ts finds those
// journeys by that call, so no helper here makes it.

export type Processor = 'sandbox' | 'wompi';

/** A date as the Spanish pages, e-mails and receipts write it, in Bogotá. */
export const dateEs = new Intl.DateTimeFormat('es-CO', { dateStyle: 'long', timeZone: 'America/Bogota' });

/** The text of the receipt PDF a link of the page (its href starting with `href`) downloads. */
export async function receiptText(page: Page, href: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.locator(`a[href^="${href}"]`).click()]);
  const pdf = fs.readFileSync((await file.path())!);
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true });
  return text;
}
