/**
 * The school's records as stored and, for most of them, as served. Field names are the wire
 * names (snake_case); money is integer cents with an ISO 4217 currency; times are RFC 3339 UTC.
 */

export const COURSE_STATES = ['draft', 'published', 'archived'] as const;
export const PAYMENT_STATES = ['not_paid', 'paid', 'expired', 'failed', 'manual_enrolled', 'refunded'] as const;
export const SUBSCRIPTION_STATES = ['active', 'incomplete', 'trialing', 'past_due', 'canceled', 'expired'] as const;
export const ATTENDEE_STATES = ['enrolled', 'checked_in', 'no_show', 'cancelled'] as const;
export const PUBLISH_STATES = ['draft', 'published'] as const;
export const PLAN_STATES = ['draft', 'published', 'archived'] as const;
export const EVENT_STATES = ['draft', 'published', 'cancelled'] as const;
export const LECTURE_KINDS = ['video', 'text', 'quiz', 'file'] as const;
export const PRODUCT_TYPES = ['course', 'membership_plan', 'event_ticket', 'digital_product'] as const;
export const CURRENCIES = ['USD', 'EUR', 'GBP'] as const;

export type CourseState = (typeof COURSE_STATES)[number];
export type PaymentState = (typeof PAYMENT_STATES)[number];
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];
export type AttendeeState = (typeof ATTENDEE_STATES)[number];
type PublishState = (typeof PUBLISH_STATES)[number];
export type PlanState = (typeof PLAN_STATES)[number];
type EventState = (typeof EVENT_STATES)[number];
type LectureKind = (typeof LECTURE_KINDS)[number];
export type ProductType = (typeof PRODUCT_TYPES)[number];
type Currency = (typeof CURRENCIES)[number];

export interface School {
  id: string;
  name: string;
  subdomain: string;
  description: string;
  support_email: string;
  timezone: string;
  currency: Currency;
  locale: string;
  created_at: string;
}

export interface Appearance {
  theme: 'light' | 'dark';
  primary_color: string;
  accent_color: string;
  font_family: string;
  logo_url: string | null;
  favicon_url: string | null;
  updated_at: string;
}

export interface AccountPreferences {
  name: string;
  locale: string;
  timezone: string;
}

export interface Course {
  id: string;
  title: string;
  slug: string;
  subtitle: string;
  description: string;
  state: CourseState;
  price_cents: number;
  currency: Currency;
  cover_image_url: string | null;
  lecturer_ids: string[];
  created_at: string;
  updated_at: string;
  published_at: string | null;
}

export interface Section {
  id: string;
  course_id: string;
  title: string;
  position: number;
}

export interface Lecture {
  id: string;
  course_id: string;
  section_id: string;
  title: string;
  position: number;
  kind: LectureKind;
  content: string | null;
  duration_seconds: number | null;
  attachment_urls: string[];
  is_free_preview: boolean;
}

export interface Member {
  id: string;
  email: string;
  name: string;
  tags: string[];
  created_at: string;
  last_sign_in_at: string | null;
}

export interface Enrollment {
  id: string;
  member_id: string;
  course_id: string;
  source: 'purchase' | 'manual' | 'membership';
  enrolled_at: string;
  completed_lecture_ids: string[];
  last_lecture_id: string | null;
  completed_at: string | null;
}

export interface Order {
  id: string;
  member_id: string;
  product_type: ProductType;
  product_id: string;
  product_name: string;
  amount_cents: number;
  discount_cents: number;
  currency: Currency;
  coupon_code: string | null;
  state: PaymentState;
  created_at: string;
  paid_at: string | null;
}

export interface MembershipPlan {
  id: string;
  name: string;
  description: string;
  state: PlanState;
  interval: 'month' | 'year';
  price_cents: number;
  currency: Currency;
  trial_days: number;
  course_ids: string[];
  created_at: string;
  updated_at: string;
}

export interface Subscription {
  id: string;
  member_id: string;
  plan_id: string;
  state: SubscriptionState;
  started_at: string;
  current_period_end: string;
  trial_ends_at: string | null;
  canceled_at: string | null;
}

export interface Coupon {
  id: string;
  code: string;
  discount_type: 'percent' | 'amount';
  percent_off: number | null;
  amount_off_cents: number | null;
  currency: Currency | null;
  course_ids: string[];
  expires_at: string | null;
  max_redemptions: number | null;
  redemptions: number;
  active: boolean;
  created_at: string;
}

export interface DigitalProduct {
  id: string;
  title: string;
  description: string;
  state: PublishState;
  price_cents: number;
  currency: Currency;
  file_url: string | null;
  downloads: number;
  created_at: string;
  updated_at: string;
}

export interface Post {
  id: string;
  title: string;
  slug: string;
  body: string;
  state: PublishState;
  tags: string[];
  created_at: string;
  updated_at: string;
  published_at: string | null;
}

export interface Comment {
  id: string;
  kind: 'comment' | 'review';
  course_id: string | null;
  lecture_id: string | null;
  post_id: string | null;
  member_id: string;
  author_name: string;
  body: string;
  rating: number | null;
  created_at: string;
}

export interface Lecturer {
  id: string;
  name: string;
  email: string;
  headline: string;
  bio: string;
  avatar_url: string | null;
  created_at: string;
}

export interface SchoolEvent {
  id: string;
  title: string;
  description: string;
  state: EventState;
  starts_at: string;
  ends_at: string;
  timezone: string;
  location_type: 'online' | 'in_person';
  location: string;
  capacity: number;
  created_at: string;
}

export interface Ticket {
  id: string;
  event_id: string;
  name: string;
  price_cents: number;
  currency: Currency;
  quantity: number;
}

interface Attendee {
  id: string;
  event_id: string;
  ticket_id: string;
  member_id: string;
  state: AttendeeState;
  registered_at: string;
}

interface FormField {
  name: string;
  label: string;
  type: 'text' | 'email' | 'textarea' | 'select';
  required: boolean;
}

interface Form {
  id: string;
  title: string;
  description: string;
  fields: FormField[];
  created_at: string;
}

interface FormSubmission {
  id: string;
  form_id: string;
  email: string;
  values: Record<string, string>;
  submitted_at: string;
}

export interface Page {
  id: string;
  title: string;
  slug: string;
  html: string;
  visibility: 'public' | 'members' | 'hidden';
  state: PublishState;
  live_deployment_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface PageDeployment {
  id: string;
  page_id: string;
  version: number;
  html: string;
  message: string;
  status: 'live' | 'superseded' | 'rolled_back';
  created_at: string;
}

export interface StoredFile {
  id: string;
  filename: string;
  content_type: string;
  size_bytes: number;
  /** The bytes, base64, so the whole state stays one JSON document. */
  data_base64: string;
  created_at: string;
}

export interface SchoolState {
  school: School;
  appearance: Appearance;
  /** The preferences of the first staff member (the single-user demo's account). */
  account: AccountPreferences;
  /** The preferences of every other staff member, by subject; absent until one changes them. */
  staff_accounts?: Record<string, AccountPreferences>;
  courses: Course[];
  sections: Section[];
  lectures: Lecture[];
  members: Member[];
  enrollments: Enrollment[];
  orders: Order[];
  membership_plans: MembershipPlan[];
  subscriptions: Subscription[];
  coupons: Coupon[];
  digital_products: DigitalProduct[];
  posts: Post[];
  comments: Comment[];
  lecturers: Lecturer[];
  events: SchoolEvent[];
  tickets: Ticket[];
  attendees: Attendee[];
  forms: Form[];
  form_submissions: FormSubmission[];
  pages: Page[];
  page_deployments: PageDeployment[];
  files: StoredFile[];
  /** The last number used per id prefix, so new ids never repeat, also after a restart. */
  id_counters: Record<string, number>;
}
