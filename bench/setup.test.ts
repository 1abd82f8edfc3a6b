import { describe, expect, it } from 'vitest';
import { wholeNumbers } from './setup';

// The benches' numeric options: a typo must stop the run, not become NaN seconds or 0 rounds.
describe('wholeNumbers', () => {
  it('reads each named option as a whole number', () => {
    expect(wholeNumbers({ rounds: '9', 'warmup-seconds': '15' }, ['rounds', 'warmup-seconds'])).toEqual({ rounds: 9, 'warmup-seconds': 15 });
  });

  it.each(['0', '-3', '2.5', 'ten', '', undefined])('refuses %j, naming the option', (value) => {
    expect(() => wholeNumbers({ rounds: '3', seconds: value }, ['rounds', 'seconds'])).toThrow('--seconds is a whole number above 0');
  });
});
