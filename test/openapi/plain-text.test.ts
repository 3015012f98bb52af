/** Document prose to plain text: markup is found by the characters it needs, prose passes as it is. */
import { describe, expect, it } from 'vitest';
import { plainText } from '../../src/openapi/plain-text.js';

describe('plainText', () => {
  it('API-08 removes each kind of markup, whichever character starts it', () => {
    expect(plainText('See [the docs](https://example.com) and ![logo](x.png).', 300)).toBe('See the docs and logo.');
    expect(plainText('A <b>bold</b><br/>line<!-- hidden --> <script>alert(1)</script>end', 300)).toBe('A bold line end');
    expect(plainText('Fish &amp; chips &#x41;', 300)).toBe('Fish & chips A');
    expect(plainText('Very **important** and __also__ `code`', 300)).toBe('Very important and also code');
    expect(plainText('Bell\u0007 and line\u2028separator', 300)).toBe('Bell and lineseparator');
  });

  it('leaves prose without markup characters as it is, whitespace collapsed', () => {
    expect(plainText('  Lists the courses (100% of them), sorted by date: newest first.  ', 300)).toBe('Lists the courses (100% of them), sorted by date: newest first.');
  });
});
