/**
 * Private files under the config directory: the checks and the atomic writes shared by the token
 * store and the OpenAPI document cache.
 */
export { type PathVerdict } from './file-verdict.js';
export {
  inspectPrivateFile,
  preparePrivateDirectory,
  readWithoutFollowing,
  readWithoutFollowingIfPresent,
  writePrivateFileAtomically,
} from './private-paths.js';
