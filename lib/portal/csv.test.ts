import { describe, expect, it } from 'vitest';
import { toCsv } from './csv';

describe('toCsv', () => {
  it('writes RFC 4180: CRLF, commas, quotes doubled inside quoted cells, empty for null', () => {
    expect(toCsv(['a', 'b'], [['x,y', 'say "hi"'], [150000, null]])).toBe('a,b\r\n"x,y","say ""hi"""\r\n150000,\r\n');
  });

  it.each(['=HYPERLINK("http://evil")', '+1+1', '-2+3', '@SUM(A1)', '\tcmd', '\rcmd'])(
    'defuses %j, which a spreadsheet would run as a formula, with a leading apostrophe',
    (value) => {
      const line = toCsv(['reference'], [[value]]).split('\r\n')[1]!;
      expect(line.replace(/^"/, '').startsWith("'")).toBe(true);
    },
  );

  it('leaves negative numbers (not text) and ordinary text alone', () => {
    expect(toCsv(['n', 't'], [[-5, 'order-1']])).toBe('n,t\r\n-5,order-1\r\n');
  });
});
