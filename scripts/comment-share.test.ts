import { describe, expect, it } from 'vitest';
import { commentCharacters } from './comment-share';

describe('commentCharacters', () => {
  it('counts line, block and JSDoc comments, each once', () => {
    expect(commentCharacters('// ab\nconst x = 1; /* cd */\n/** ef */\nfunction f() {}\n')).toBe('// ab'.length + '/* cd */'.length + '/** ef */'.length);
  });

  it('counts no // inside a string, a template, a regular expression or JSX text', () => {
    expect(commentCharacters("const url = 'https://x.co'; const t = `a // ${url} // b`; const r = /\\/\\//;\n")).toBe(0);
    expect(commentCharacters('const p = <p>see http://x.co // here</p>;\n', true)).toBe(0);
  });
});
