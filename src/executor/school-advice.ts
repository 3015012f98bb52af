/**
 * The next step a school's own error message already gives ("...; add one with create_lecture").
 * It knows the school's data better than any generic advice, so when it is there it is the next
 * step, alone: a generic one next to it ("read it again") would contradict it. Pure. A clause
 * counts as advice when it starts with an imperative verb or ends with "instead".
 */
const IMPERATIVES = new Set([
  'add',
  'archive',
  'ask',
  'call',
  'cancel',
  'change',
  'check',
  'choose',
  'contact',
  'create',
  'delete',
  'enrol',
  'enroll',
  'fix',
  'give',
  'include',
  'list',
  'pick',
  'provide',
  'publish',
  'read',
  'remove',
  'rename',
  'retry',
  'select',
  'send',
  'set',
  'sign',
  'try',
  'unpublish',
  'update',
  'upload',
  'use',
  'wait',
]);

const MAX_ADVICE_CHARS = 300;

export function schoolAdvice(message: string | undefined): string | undefined {
  if (message === undefined) return undefined;
  const clauses = message
    .split(/[;.!]\s+|[;.!]$|:\s+|,\s+(?=(?:then|please)\b)/i)
    .map((clause) => clause.trim())
    .filter((clause) => clause !== '');
  const advice = clauses.find((clause) => {
    const [first = '', second = ''] = clause
      .replace(/^(?:then|please)\s+/i, '')
      .toLowerCase()
      .split(/\s+/, 2);
    // "Use of this endpoint is restricted" names a noun, not a step.
    return (IMPERATIVES.has(first) && !['of', 'is', 'was', 'has'].includes(second)) || /\binstead$/i.test(clause);
  });
  if (advice === undefined || advice.length > MAX_ADVICE_CHARS) return undefined;
  return `${advice.charAt(0).toUpperCase()}${advice.slice(1)}${/[.!?]$/.test(advice) ? '' : '.'}`;
}
