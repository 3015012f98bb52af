export { runLogin, runLogout, runStatus } from './auth-commands.js';
export { buildToolsReport, formatToolsReport, type ToolsReport } from './tools-report.js';
export { storeCommandAnswer } from './store-report.js';
