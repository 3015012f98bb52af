export { configDirectory, createSchoolSession, openSchool, type OpenSchool, type OpenSchoolOptions } from './open-school.js';
export { startDemoSchool, type DemoSchool } from './demo-school.js';
export { listSchoolTools, type ListedTool, type ToolListing } from './tool-listing.js';
