import { describe, expect, it } from 'vitest';
import { allowedDomainProblem, allowedDomainsSchema } from './schemas';

describe('allowedDomains (docs/checkout.md#embedding)', () => {
  it.each(['shop.example.com', '*.example.com', 'localhost:3000', '127.0.0.1:8080', 'localhost', 'a-b.example.co'])(
    'accepts %s',
    (entry) => expect(allowedDomainProblem(entry)).toBeNull(),
  );

  it.each([
    'https://shop.example.com',
    'shop.example.com/checkout',
    'shop.example.com?x=1',
    'shop example.com',
    '*',
    '*.com',
    '*.127.0.0.1',
    'shop.example.com:0',
    'shop.example.com:65536',
    '[::1]:3000',
    '-shop.example.com',
    'user@shop.example.com',
    '999.1.1.1',
    '',
  ])('refuses %j', (entry) => expect(allowedDomainProblem(entry)).not.toBeNull());

  it('normalises case and removes repeats', () => {
    expect(allowedDomainsSchema.parse(['Shop.Example.COM', 'shop.example.com', ' *.Example.com '])).toEqual([
      'shop.example.com',
      '*.example.com',
    ]);
  });
});
