import type { RouteFamily } from '../route.js';
import { accountFamily } from './account.js';
import { analyticsFamily } from './analytics.js';
import { appearanceFamily } from './appearance.js';
import { commentFamily } from './comments.js';
import { couponFamily } from './coupons.js';
import { courseFamily } from './courses.js';
import { curriculumFamily } from './curriculum.js';
import { digitalProductFamily } from './digital-products.js';
import { eventFamily } from './events.js';
import { formFamily } from './forms.js';
import { lecturerFamily } from './lecturers.js';
import { memberFamily } from './members.js';
import { membershipPlanFamily } from './membership-plans.js';
import { orderFamily } from './orders.js';
import { pageFamily } from './pages.js';
import { postFamily } from './posts.js';
import { schoolFamily } from './school.js';
import { studentFamily } from './students.js';
import { subscriptionFamily } from './subscriptions.js';
import { storageFamily } from './storage.js';

/** Every resource family of the API, in the order `/openapi.json` lists them. */
export const ROUTE_FAMILIES: readonly RouteFamily[] = [
  schoolFamily,
  accountFamily,
  courseFamily,
  curriculumFamily,
  studentFamily,
  memberFamily,
  orderFamily,
  subscriptionFamily,
  membershipPlanFamily,
  couponFamily,
  digitalProductFamily,
  postFamily,
  commentFamily,
  lecturerFamily,
  eventFamily,
  formFamily,
  pageFamily,
  appearanceFamily,
  analyticsFamily,
  storageFamily,
];

export { FILES_PATH, serveStoredFile } from './storage.js';
