import { describe, expect, it } from 'vitest';
import { composeSteps, type Step } from '../../src/hosted/request-steps.js';

type Trace = string[];

const passing =
  (name: string): Step<Trace> =>
  async (trace, next) => {
    trace.push(`${name} in`);
    await next();
    trace.push(`${name} out`);
  };

describe('the hosted server composes its steps in order', () => {
  it('runs each step around the ones after it', async () => {
    const trace: Trace = [];
    await composeSteps([passing('a'), passing('b'), async (t) => void t.push('answer')])(trace);
    expect(trace).toEqual(['a in', 'b in', 'answer', 'b out', 'a out']);
  });

  it('lets a step answer without the steps after it', async () => {
    const trace: Trace = [];
    const refusing: Step<Trace> = async (t) => void t.push('refused');
    await composeSteps([passing('a'), refusing, async (t) => void t.push('answer')])(trace);
    expect(trace).toEqual(['a in', 'refused', 'a out']);
  });

  it('turns a step that throws into a rejection an earlier step can catch', async () => {
    const trace: Trace = [];
    const catching: Step<Trace> = (t, next) => next().catch((error: Error) => void t.push(`caught ${error.message}`));
    const throwing: Step<Trace> = () => {
      throw new Error('boom');
    };
    await composeSteps([catching, throwing])(trace);
    expect(trace).toEqual(['caught boom']);
  });
});
