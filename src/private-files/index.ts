/**
 * Private files under the config directory: the checks and the atomic writes shared by the token
 * store and the OpenAPI document cache.
 */
export { currentViewer, judgePath, type PathFacts, type PathVerdict, type Viewer } from './file-verdict.js';
export {
  inspectPrivateFile,
  preparePrivateDirectory,
  readWithoutFollowing,
  writePrivateFileAtomically,
  type AtomicWriteOptions,
  type PrepareDirectoryOptions,
  type UnsafePathError,
} from './private-paths.js';
