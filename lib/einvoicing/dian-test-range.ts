// DIAN's public habilitación range (prefix SETP, 990000000–995000000) and its technical key: what
// a sandbox numbers in when the merchant gives no resolution, and what the doubles and tests use.
import type { Resolution } from './draft';

export const DIAN_TEST_RESOLUTION: Resolution = {
  number: '18760000001',
  prefix: 'SETP',
  from: 990_000_000,
  to: 995_000_000,
  startDate: '2019-01-19',
  endDate: '2030-01-19',
  technicalKey: 'fc8eac422eba16e22ffd8c6f94b3f40a6e38162c',
};
