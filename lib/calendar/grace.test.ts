import { describe, expect, it } from 'vitest';
import { clampRenewalSettings, DAY_MS, issueTime, nextStepAt, reminderTimes } from './grace';

const at = (iso: string) => new Date(`${iso}T15:00:00.000Z`);

describe('renewal link schedule (docs/billing.md#renewal-links)', () => {
  it('leaves a monthly period alone and clamps a weekly one so reminder and grace fit inside the week', () => {
    expect(clampRenewalSettings({ reminderDays: 3, graceDays: 5 }, 31 * DAY_MS)).toEqual({ reminderDays: 3, graceDays: 5 });
    expect(clampRenewalSettings({ reminderDays: 10, graceDays: 15 }, 31 * DAY_MS)).toEqual({ reminderDays: 10, graceDays: 15 });
    expect(clampRenewalSettings({ reminderDays: 10, graceDays: 15 }, 28 * DAY_MS)).toEqual({ reminderDays: 10, graceDays: 14 });
    // A week: grace at most 3 days, and the e-mail at least a day after the previous grace ended.
    expect(clampRenewalSettings({ reminderDays: 3, graceDays: 5 }, 7 * DAY_MS)).toEqual({ reminderDays: 3, graceDays: 3 });
    expect(clampRenewalSettings({ reminderDays: 10, graceDays: 0 }, 7 * DAY_MS)).toEqual({ reminderDays: 6, graceDays: 0 });
    for (let reminderDays = 1; reminderDays <= 10; reminderDays++) {
      for (let graceDays = 0; graceDays <= 15; graceDays++) {
        const c = clampRenewalSettings({ reminderDays, graceDays }, 7 * DAY_MS);
        expect(c.graceDays + c.reminderDays, `${reminderDays}/${graceDays}`).toBeLessThan(7);
        expect(c.reminderDays).toBeGreaterThanOrEqual(1);
      }
    }
  });

  it('e-mails reminderDays before the due date, reminds on the due date and two days before grace ends, then ends', () => {
    const due = at('2027-03-10');
    const link = { createdAt: issueTime(due, { reminderDays: 3, graceDays: 5 }), period: due, expiresAt: at('2027-03-15') };
    expect(link.createdAt).toEqual(at('2027-03-07'));
    expect(reminderTimes(link)).toEqual([due, at('2027-03-13')]);
    expect(nextStepAt(link, 0)).toEqual(due);
    expect(nextStepAt(link, 1)).toEqual(at('2027-03-13'));
    expect(nextStepAt(link, 2)).toEqual(at('2027-03-15'));
  });

  it('sends one reminder when grace is two days or less, none with no grace, and none before a ladder link was issued', () => {
    const due = at('2027-03-10');
    const created = at('2027-03-07');
    expect(reminderTimes({ createdAt: created, period: due, expiresAt: at('2027-03-12') })).toEqual([due]);
    expect(reminderTimes({ createdAt: created, period: due, expiresAt: due })).toEqual([]);
    // The ladder: issued after the last retry (5 days after the due date), grace from then.
    expect(reminderTimes({ createdAt: at('2027-03-15'), period: due, expiresAt: at('2027-03-20') })).toEqual([at('2027-03-18')]);
    expect(reminderTimes({ createdAt: at('2027-03-15'), period: due, expiresAt: at('2027-03-16') })).toEqual([]);
  });
});
