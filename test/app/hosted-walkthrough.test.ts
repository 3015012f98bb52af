import { describe, expect, it } from 'vitest';
import { demoWalkthrough } from '../../src/app/hosted-walkthrough.js';

describe('school-mcp --hosted --demo', () => {
  it("prints the demo's endpoint, school and steps", () => {
    const text = demoWalkthrough('http://127.0.0.1:4000', 'http://127.0.0.1:5000/');
    expect(text).toContain('http://127.0.0.1:4000/mcp');
    expect(text).toContain('http://127.0.0.1:5000/');
    expect(text).toMatch(/who_am_i/);
  });
});
