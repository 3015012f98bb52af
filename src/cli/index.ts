export { formatStatus, runLogin, runLogout, runStatus, type LineWriter } from './auth-commands.js';
