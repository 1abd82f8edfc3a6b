import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eventChecksum, integritySignature, verifyEventChecksum } from './signatures';

describe('Wompi integrity signature', () => {
  it("matches the known answer of Wompi's documentation", () => {
    const signature = integritySignature(
      { reference: 'sk8-438k4-xmxm392-sn2m', amountInCents: 2490000, currency: 'COP' },
      'prod_integrity_Z5mMke9x0k8gpErbDqwrJXMqsI6SFli6',
    );
    expect(signature).toBe('37c8407747e595535433ef8f6a811d853cd943046624a0ec04662b17bbf33bf5');
  });

  it('puts the expiration time between the currency and the secret when there is one', () => {
    const input = { reference: 'txn_1', amountInCents: 150000, currency: 'COP', expirationTime: '2026-11-24T00:00:00.000Z' };
    const expected = createHash('sha256').update('txn_1150000COP2026-11-24T00:00:00.000Ztest_integrity_x').digest('hex');
    expect(integritySignature(input, 'test_integrity_x')).toBe(expected);
  });
});

describe('Wompi event checksum', () => {
  const event = {
    data: { transaction: { id: '1234-1610641025-49201', status: 'APPROVED', amount_in_cents: 4490000, reference: 'txn_a' } },
    signature: { properties: ['transaction.id', 'transaction.status', 'transaction.amount_in_cents'], checksum: '' },
    timestamp: 1530291411,
  };
  // The rule written out by hand: the named values in order, the timestamp, the secret.
  const byHand = createHash('sha256').update('1234-1610641025-49201APPROVED44900001530291411test_events_secret').digest('hex');

  it('concatenates the values the event names, then the timestamp and the secret', () => {
    expect(eventChecksum(event, 'test_events_secret')).toBe(byHand);
  });

  it('reads the property list from the event itself, in its order', () => {
    const reordered = { ...event, signature: { properties: ['transaction.reference', 'transaction.id'], checksum: '' } };
    const expected = createHash('sha256').update('txn_a1234-1610641025-492011530291411s').digest('hex');
    expect(eventChecksum(reordered, 's')).toBe(expected);
  });

  it('verifies upper- and lower-case checksums and refuses a wrong secret, a changed value or a bad checksum', () => {
    expect(verifyEventChecksum({ ...event, signature: { ...event.signature, checksum: byHand.toUpperCase() } }, 'test_events_secret')).toBe(true);
    expect(verifyEventChecksum({ ...event, signature: { ...event.signature, checksum: byHand } }, 'test_events_secret')).toBe(true);
    expect(verifyEventChecksum({ ...event, signature: { ...event.signature, checksum: byHand } }, 'test_events_other')).toBe(false);
    const changed = { ...event, data: { transaction: { ...event.data.transaction, status: 'DECLINED' } } };
    expect(verifyEventChecksum({ ...changed, signature: { ...event.signature, checksum: byHand } }, 'test_events_secret')).toBe(false);
    expect(verifyEventChecksum({ ...event, signature: { ...event.signature, checksum: 'abc' } }, 'test_events_secret')).toBe(false);
  });
});
