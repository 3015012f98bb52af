/**
 * The words search compares: lower case, split at case changes and punctuation, British spellings
 * written the American way, and a light stem (plurals, -ing, -ed, -ment and a final e), so that
 * "enrolments", "enrolled" and "enrollment" are one word, and so are "colours" and "color". The
 * same function reads the query and the operations, so a stem only has to be consistent, not a
 * real word ("course" and "courses" are both `cours`). Pure.
 */
import { snakeCase } from './tool-names.js';

/** Words that say nothing about which operation is meant. */
const STOP_WORDS = new Set([
  'a',
  'an',
  'the',
  'of',
  'for',
  'to',
  'in',
  'on',
  'at',
  'by',
  'with',
  'from',
  'into',
  'about',
  'and',
  'or',
  'as',
  'its',
  'it',
  'is',
  'are',
  'be',
  'this',
  'that',
  'these',
  'those',
  'my',
  'me',
  'i',
  'we',
  'our',
  'us',
  'you',
  'your',
  'their',
  'them',
  'they',
  'please',
  'can',
  'could',
  'would',
  'do',
  'does',
  'did',
  'want',
  'need',
  'just',
  'some',
  'there',
  'here',
  'so',
  'up',
  'out',
  'off',
  'one',
  'single',
  'someone',
  'somebody',
  'currently',
  'right',
  'now',
  'still',
  'again',
  'whose',
  'any',
  'every',
  'been',
  'have',
  'has',
  'had',
  'will',
  'let',
]);

/**
 * British spellings (and a few other variants) an administrator may type, each as the API-side
 * form. Matched on whole words before stemming.
 */
const SPELLINGS: Readonly<Record<string, string>> = {
  enrol: 'enroll',
  enrols: 'enroll',
  enrolment: 'enrollment',
  enrolments: 'enrollment',
  enrolling: 'enroll',
  enrolled: 'enroll',
  colour: 'color',
  colours: 'color',
  favourite: 'favorite',
  favourites: 'favorite',
  behaviour: 'behavior',
  centre: 'center',
  catalogue: 'catalog',
  catalogues: 'catalog',
  programme: 'program',
  programmes: 'program',
  licence: 'license',
  cheque: 'check',
  cancelled: 'canceled',
  cancelling: 'canceling',
  labelled: 'labeled',
  labelling: 'labeling',
  modelling: 'modeling',
  travelling: 'traveling',
  organisation: 'organization',
  organise: 'organize',
  customise: 'customize',
  personalise: 'personalize',
  authorise: 'authorize',
  analyse: 'analyze',
  summarise: 'summarize',
  categorise: 'categorize',
  prioritise: 'prioritize',
  recognise: 'recognize',
};

/**
 * Phrasal verbs and set phrases, as the one word an API would use: "sign Jane up" is an
 * enrolment, "look up" a find, "roll back" a rollback, "take X off Y" a removal.
 */
const PHRASES: readonly (readonly [RegExp, string])[] = [
  [/\bset(?:ting)?[\s-]+(\w+\s+)?up\b/gi, 'setup $1'],
  [/\bsign(?:s|ed|ing)?[\s-]+(\w+\s+)?ups?\b/gi, 'signup $1'],
  [/\blook(?:s|ed|ing)?[\s-]+(\w+\s+)?up\b/gi, 'find $1'],
  [/\broll(?:s|ed|ing)?[\s-]+(\w+\s+)?back\b/gi, 'rollback $1'],
  [/\b(?:go|goes|went|put|make|take|set)\b(.{0,30}?)\blive\b/gi, 'deploy $1'],
  [/\b(?:turn|switch)(?:s|ed|ing)?[\s-]+(\w+\s+)?off\b/gi, 'deactivate $1'],
  [/\btake(?:s|n)? (.{0,40}?)\b(?:off|out of)\b/gi, 'remove $1 from'],
  [/\blog(?:ged)? in\b/gi, 'login'],
  [/\bwho am i\b/gi, 'account'],
  [/\bhow (?:much|many)\b/gi, 'count total'],
];

/** Lower-case word stems: `listCourses /course-players` → `list cours cours player`. */
export function searchWords(text: string): string[] {
  return rawWords(text)
    .filter((word) => !STOP_WORDS.has(word))
    .map(stem)
    .filter((word) => word !== '');
}

/** The words before stop words are dropped and stems made: what the query said, for an answer. */
export function rawWords(text: string): string[] {
  const phrased = PHRASES.reduce((current, [pattern, replacement]) => current.replace(pattern, replacement), text);
  const split = snakeCase(phrased.replace(/['’]s\b/gi, '').replace(/\be-(mail|book)/gi, 'e$1'))
    .split('_')
    .filter((word) => word !== '');
  return split.flatMap((word) => (SPELLINGS[word] ?? word).split('_'));
}

/** Words ending in -ing that are not a verb's -ing form: "setting" is not the verb "set". */
const WHOLE_WORDS = new Set([
  'setting',
  'string',
  'spring',
  'during',
  'morning',
  'evening',
  'nothing',
  'something',
  'anything',
  'everything',
  'thing',
  'bring',
]);

/** One word's stem; idempotent on what it returns. */
export function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(?:ss|sh|ch|x|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith('ing') && !WHOLE_WORDS.has(w) && undouble(w.slice(0, -3)).length >= 3) w = undouble(w.slice(0, -3));
  else if (w.endsWith('ed') && !w.endsWith('eed') && undouble(w.slice(0, -2)).length >= 3) w = undouble(w.slice(0, -2));
  if (w.length > 7 && w.endsWith('ment')) w = w.slice(0, -4);
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

/** `stopp` → `stop`, `plann` → `plan`; `enroll` and `pass` keep theirs. */
function undouble(w: string): string {
  return /([bdgmnprt])\1$/.test(w) ? w.slice(0, -1) : w;
}
