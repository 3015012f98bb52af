export { formatStatus, runLogin, runLogout, runStatus, type LoginOptions } from './auth-commands.js';
export type { LineWriter } from './line-writer.js';
