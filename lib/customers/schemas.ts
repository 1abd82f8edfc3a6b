import { z } from 'zod';

// The merchant's side of the customer page (docs/customers.md#the-manage-page).

export const manageLinkSchema = z
  .object({
    url: z.string().describe('The customer page, /manage/<token>: send it to the customer; it opens this plan without any login'),
    expiresAt: z.iso.datetime({ precision: 3 }).describe('When the link stops working (7 days after it was made)'),
  })
  .meta({ id: 'ManageLink' });
