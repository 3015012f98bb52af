export { formatStatus, runLogin, runLogout, runStatus, type LineWriter, type LoginOptions } from './auth-commands.js';
