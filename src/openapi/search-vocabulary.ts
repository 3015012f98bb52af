/**
 * The everyday words of running an online school and selling its courses, and what an API calls
 * the same thing: an administrator says "enrol someone in a class", "promo code" or "how much money
 * did we make"; the API says enrollment, coupon and revenue. General vocabulary of the domain, not
 * one school's: a word group here should hold for any school's API. Pure; stemmed once at load.
 */
import { searchWords, stem } from './search-words.js';

/** Words that name the same thing, or close enough that one should find the other. */
const WORD_GROUPS: readonly string[] = [
  'enroll enrollment register registration signup join admit take',
  'member student learner pupil user customer person people client buyer subscriber contact signup',
  'course class program training',
  'lecture lesson video unit content',
  'section chapter module part outline curriculum',
  'lecturer teacher instructor tutor trainer educator coach faculty staff teach',
  'coupon discount promo promotion voucher code deal',
  'revenue sales money income earnings earn profit turnover',
  'order purchase sale transaction payment buy bought sold invoice receipt',
  'upload file image picture photo pdf attachment document',
  'tag label segment category',
  'subscription recurring renew renewal billing subscriber',
  'plan tier membership bundle package',
  'event webinar workshop meetup session seminar',
  'ticket seat pass admission',
  'capacity seat space spot available remaining',
  'due overdue late unpaid failed',
  'attendee registrant participant guest rsvp',
  'post article blog announcement story',
  'comment review feedback rating star testimonial opinion say',
  'form survey questionnaire',
  'submission response entry lead answer',
  'page landing website site webpage homepage',
  'deploy deployment release live',
  'version history revision',
  'rollback revert undo restore',
  'appearance theme color brand branding font logo style design',
  'school academy organization business institute',
  'account profile myself login permission scope role',
  'summary report statistics stats analytics numbers metrics dashboard total',
  'product download downloadable ebook workbook template',
  'setting preference configuration config option',
  'email mail',
  'price cost fee pricing',
  'headline bio biography',
  'schedule reschedule time date',
];

export type Intent = 'read' | 'create' | 'update' | 'delete';

/** Verbs that say what kind of call is wanted, with the verbs an API names the same call by. */
const INTENT_VERBS: Readonly<Record<Intent, string>> = {
  read: 'list get show see view find look search fetch read open check display which who what how export pull browse total count',
  create: 'create add new make upload write draft setup schedule start invite sell offer',
  update:
    'update edit change modify set rename move fix switch turn deactivate activate enable disable publish unpublish archive reschedule extend replace put assign',
  delete: 'delete remove cancel destroy unassign detach drop erase stop end',
};

/**
 * Verbs that are also the name of what they make ("enrol" a student makes an enrolment): a
 * creation only in this exact form, since their stems are those of the nouns ("enrolment
 * statistics" asks for a read).
 */
const CREATING_VERBS = new Set(['enroll', 'register', 'signup', 'subscribe', 'book']);

/** What each kind of call is named in an API: `cancel` finds `cancel_subscription`, `stop` too. */
const INTENT_NAMES: Readonly<Record<Intent, readonly string[]>> = {
  read: ['list', 'get', 'find', 'search'],
  create: ['create', 'add', 'upload', 'attach', 'deploy'],
  update: ['update', 'change', 'set', 'rename', 'publish', 'rollback', 'roll', 'deploy', 'attach'],
  delete: ['delete', 'remove', 'cancel', 'detach'],
};

const groupsOf = new Map<string, Set<string>>();
for (const group of WORD_GROUPS) {
  const stems = new Set(group.split(' ').flatMap((word) => searchWords(word.replace(/_/g, ' '))));
  for (const word of stems) {
    const known = groupsOf.get(word) ?? new Set<string>();
    for (const other of stems) known.add(other);
    groupsOf.set(word, known);
  }
}

const intentOf = new Map<string, Intent>();
for (const [intent, verbs] of Object.entries(INTENT_VERBS) as [Intent, string][]) {
  for (const verb of verbs.split(' ')) intentOf.set(stem(verb.replace(/_/g, '')), intent);
}

/** The stems that `word` (a stem) may stand for, itself excluded. */
export function relatedWords(word: string): readonly string[] {
  return [...(groupsOf.get(word) ?? [])].filter((other) => other !== word);
}

/** The kind of call a word as written asks for (before its stem is made), if it asks for one. */
export function intentOfRawWord(word: string): Intent | undefined {
  return CREATING_VERBS.has(word) ? 'create' : intentOf.get(stem(word));
}

/** The kind of call a verb (a stem) asks for, if it is one. */
export function intentOfWord(word: string): Intent | undefined {
  return intentOf.get(word);
}

/** Stems an operation's name may use for a call of this kind. */
export function namesOfIntent(intent: Intent): readonly string[] {
  return INTENT_NAMES[intent].map(stem);
}
