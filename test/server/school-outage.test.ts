/** What a call answers while the school is out of reach. */
import { describe, expect, it } from 'vitest';
import { SchoolMcpError } from '../../src/errors.js';
import { outageResult } from '../../src/server/school-outage.js';

const refused = new SchoolMcpError('OPENAPI_FETCH_FAILED', 'The school could not be reached (ECONNREFUSED).', {
  hint: 'Check the school URL.',
});

describe('outageResult', () => {
  it("is a tool error with the code, the school's words, the next step and when it is tried again", () => {
    const result = outageResult('school.example', refused, 5_000, 1_000);
    expect(result.isError).toBe(true);
    const text = (result.content[0] as { text: string }).text;
    expect(text).toContain('(OPENAPI_FETCH_FAILED)');
    expect(text).toContain('Next step: Check the school URL.');
    expect(text).toContain('in 4 s or later');
    expect(result.structuredContent).toEqual({
      available: false,
      code: 'OPENAPI_FETCH_FAILED',
      message: refused.message,
      hint: 'Check the school URL.',
      retryInSeconds: 4,
    });
  });
});
