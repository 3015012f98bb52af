export { configDirectory, createSchoolSession } from './open-school.js';
export { startDemoSchool, type DemoSchool } from './demo-school.js';
export { listSchoolTools } from './tool-listing.js';
export { runHosted } from './run-hosted.js';
export { packageVersion } from './package-version.js';
export { runStoreCommand } from './run-store-command.js';
export { openServedSchool } from './served-school.js';
export { openLoginSession } from './login-session.js';
