/**
 * Text a school controls, made safe to quote back to an agent or a user. Every part that quotes
 * a school's words goes through here, so the rule has one owner.
 */
export {
  MALFORMED_ERROR,
  errorCodeText,
  errorDescriptionText,
  freeText,
  isQuotableScope,
  quotableScopes,
  quotedText,
} from './school-text.js';
export { isShowable, showableText } from './showable-text.js';
export { schoolTextNote } from './school-text-fields.js';
