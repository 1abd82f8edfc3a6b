import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cude, cudeString, cufe, cufeString, dianQrUrl, type CudeFields, type CufeFields } from './cufe';

// Known answers (docs/einvoicing.md#known-answers): the annex's CUFE and credit-note CUDE
// examples (confirmed by two independent implementations and recomputed), three derived regression
// vectors (D1–D3) and the annex's debit-note string; the pitfalls seen in public code are the
// negative cases.

const ANNEX_CUFE: CufeFields = {
  number: '323200000129',
  issueDate: '2019-01-16',
  issueTime: '10:53:10-05:00',
  lineExtension: 150_000_000,
  iva: 28_500_000,
  inc: 0,
  ica: 0,
  payable: 178_500_000,
  supplierNit: '700085371',
  buyerId: '800199436',
  technicalKey: '693ff6f2a553c3646a063436fd4dd9ded0311471',
  environment: 1,
};

const ANNEX_CUDE: CudeFields = {
  number: '8110007871',
  issueDate: '2019-01-12',
  issueTime: '07:00:00-05:00',
  lineExtension: 500_000,
  iva: 95_000,
  inc: 0,
  ica: 0,
  payable: 595_000,
  supplierNit: '900373076',
  buyerId: '8355990',
  softwarePin: '12301',
  environment: 1,
};

const TEST_RANGE_KEY = 'fc8eac422eba16e22ffd8c6f94b3f40a6e38162c';

/** D2, a 49 900 COP renewal, and D3, the credit note annulling it, carry the same amounts and parties. */
const D2_AMOUNTS = { lineExtension: 4_193_277, iva: 796_723, inc: 0, ica: 0, payable: 4_990_000, supplierNit: '900373076', buyerId: '222222222222' };

describe('CUFE', () => {
  it('matches the annex example (annex 1.9), string and digest', () => {
    expect(cufeString(ANNEX_CUFE)).toBe(
      '3232000001292019-01-1610:53:10-05:001500000.0001285000.00040.00030.001785000.00700085371800199436693ff6f2a553c3646a063436fd4dd9ded03114711',
    );
    expect(cufe(ANNEX_CUFE)).toBe('8bb918b19ba22a694f1da11c643b5e9de39adf60311cf179179e9b33381030bcd4c3c3f156c506ed5908f9276f5bd9b4');
  });

  it('matches D1: the annex example for a final consumer in tests', () => {
    expect(cufe({ ...ANNEX_CUFE, buyerId: '222222222222', environment: 2 })).toBe(
      '685e7d94f0fbbcbe2e99ebe9a1326a11ea8cab0e3f846bcbb860467bd18160f60d89fe78b4effc1dd8f59809485593cd',
    );
  });

  it('matches D2: a 49 900 COP renewal in the SETP test range', () => {
    const fields: CufeFields = {
      number: 'SETP990000001',
      issueDate: '2026-11-28',
      issueTime: '10:00:00-05:00',
      ...D2_AMOUNTS,
      technicalKey: TEST_RANGE_KEY,
      environment: 2,
    };
    expect(cufeString(fields)).toBe(
      'SETP9900000012026-11-2810:00:00-05:0041932.77017967.23040.00030.0049900.00900373076222222222222fc8eac422eba16e22ffd8c6f94b3f40a6e38162c2',
    );
    expect(cufe(fields)).toBe('6bbe919dd7e0c3088719481d162811717736323cdfb2856a5b6147df183dd37e0e8a998a5b3f6bac00f7d34bc79c214e');
  });

  describe('refuses the pitfalls seen in public code rather than hash them', () => {
    it.each([
      ['a time without its offset', { issueTime: '10:53:10' }, /issueTime/],
      ['a time in UTC', { issueTime: '15:53:10Z' }, /issueTime/],
      ['a YYYYMMDD date', { issueDate: '20190116' }, /issueDate/],
      ['an impossible date', { issueDate: '2019-02-30' }, /issueDate/],
      ['the issuer NIT with its check digit', { supplierNit: '700085371-4' }, /supplierNit/],
      ['the buyer NIT with its check digit', { buyerId: '800199436-1' }, /buyerId/],
      ['a 38-hex technical key (two characters lost)', { technicalKey: TEST_RANGE_KEY.slice(0, 38) }, /technicalKey/],
      ['an upper-case technical key', { technicalKey: TEST_RANGE_KEY.toUpperCase() }, /technicalKey/],
      ['the software PIN in place of the technical key', { technicalKey: '12301' }, /technicalKey/],
      ['an amount with fractions of a cent', { lineExtension: 150_000_000.5 }, /whole number of cents/],
      ['a negative amount', { iva: -1 }, /whole number of cents/],
      ['an environment other than 1 or 2', { environment: 3 as 1 }, /environment/],
      ['a number with a separator', { number: 'SETP-990000001' }, /number/],
    ])('%s', (_name, change, message) => {
      expect(() => cufe({ ...ANNEX_CUFE, ...change })).toThrow(message);
    });

    it('writes amounts with exactly two decimals, never as integers or with separators', () => {
      const s = cufeString({ ...ANNEX_CUFE, iva: 0, lineExtension: 5, payable: 1_000_000_000 });
      expect(s).toContain('0.05010.00');
      expect(s).toContain('10000000.00');
      expect(s).not.toMatch(/[,\s]/);
    });

    it('differs from the hash of a string that dropped the offset (the pitfall is not harmless)', () => {
      const dropped = cufeString(ANNEX_CUFE).replace('10:53:10-05:00', '10:53:10');
      expect(createHash('sha384').update(dropped).digest('hex')).not.toBe(cufe(ANNEX_CUFE));
    });
  });
});

describe('CUDE', () => {
  it('matches the annex credit-note example (annex 1.9 §11.4.3)', () => {
    expect(cudeString(ANNEX_CUDE)).toBe('81100078712019-01-1207:00:00-05:005000.0001950.00040.00030.005950.009003730768355990123011');
    expect(cude(ANNEX_CUDE)).toBe('907e4444decc9e59c160a2fb3b6659b33dc5b632a5008922b9a62f83f757b1c448e47f5867f2b50dbdb96f48c7681168');
  });

  it('matches D3: the credit note annulling D2', () => {
    expect(
      cude({
        number: 'NC1',
        issueDate: '2026-11-29',
        issueTime: '09:15:00-05:00',
        ...D2_AMOUNTS,
        softwarePin: '12345',
        environment: 2,
      }),
    ).toBe('9ec167d3071c8af116ac2d9540a7ffef1f5ae4033e41f57ba3f5152934e62dd193be81623085bebfa3dc04b66c281ad9');
  });

  it('hashes the debit-note string of the annex to facho\'s value, not the printed erratum', () => {
    const fields: CudeFields = {
      number: 'ND1001',
      issueDate: '2019-01-18',
      issueTime: '10:58:00-05:00',
      lineExtension: 3_000_000,
      iva: 0,
      inc: 240_000,
      ica: 0,
      payable: 3_240_000,
      supplierNit: '900197264',
      buyerId: '10254102',
      softwarePin: '10201',
      environment: 2,
    };
    expect(cudeString(fields)).toBe('ND10012019-01-1810:58:00-05:0030000.00010.00042400.00030.0032400.0090019726410254102102012');
    const digest = cude(fields);
    expect(digest.startsWith('3fa73a86')).toBe(true);
    expect(digest.endsWith('1c31da')).toBe(true);
    expect(digest.startsWith('b9483dc2')).toBe(false);
  });

  it('keeps a cédula whole: no digit is cut from a buyer that is not a NIT', () => {
    expect(cudeString(ANNEX_CUDE)).toContain('9003730768355990');
  });

  it('refuses the technical key in place of the PIN', () => {
    expect(() => cude({ ...ANNEX_CUDE, softwarePin: TEST_RANGE_KEY })).toThrow(/softwarePin/);
  });

  it('is not the CUFE of the same fields with the PIN as a key', () => {
    expect(() => cufe({ ...ANNEX_CUDE, technicalKey: ANNEX_CUDE.softwarePin })).toThrow(/technicalKey/);
  });
});

describe('dianQrUrl', () => {
  it('points at the habilitación catalogue in tests and the production one in production', () => {
    const key = cufe(ANNEX_CUFE);
    expect(dianQrUrl(key, 2)).toBe(`https://catalogo-vpfe-hab.dian.gov.co/document/searchqr?documentkey=${key}`);
    expect(dianQrUrl(key, 1)).toBe(`https://catalogo-vpfe.dian.gov.co/document/searchqr?documentkey=${key}`);
  });
});
