/** The path parameters shared by the route families, with their formats and examples. */
import { s } from './schema.js';

export const params = {
  courseId: s.id('The course id.', 'crs_0001'),
  sectionId: s.id('The section id.', 'sec_0001'),
  lectureId: s.id('The lecture id.', 'lec_0001'),
  lecturerId: s.id('The lecturer id.', 'lct_0001'),
  memberId: s.id('The member id.', 'mem_0001'),
  enrollmentId: s.id('The enrollment id.', 'enr_0001'),
  orderId: s.id('The order id.', 'ord_0001'),
  planId: s.id('The membership plan id.', 'pln_0001'),
  subscriptionId: s.id('The subscription id.', 'sub_0001'),
  couponId: s.id('The coupon id.', 'cpn_0001'),
  productId: s.id('The digital product id.', 'dgp_0001'),
  postId: s.id('The post id.', 'pst_0001'),
  commentId: s.id('The comment id.', 'cmt_0001'),
  eventId: s.id('The event id.', 'evt_0001'),
  formId: s.id('The form id.', 'frm_0001'),
  pageId: s.id('The page id.', 'pag_0001'),
} as const;
