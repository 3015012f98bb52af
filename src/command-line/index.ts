/**
 * The command line as one table: commands, options, their environment variables and help, from
 * which come the parser's configuration and the usage text.
 */
export { parseCommandLine, type CommandLineTable } from './option-table.js';
export { commandUsage } from './usage-text.js';
export { SCHOOL_MCP_COMMAND_LINE, STORE_COMMANDS, type CommandName } from './school-mcp-table.js';
