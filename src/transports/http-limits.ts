/** The endpoint's fixed shape, apart from the HTTP stack so that a stdio start never loads it. */

export const MCP_PATH = '/mcp';

/** HTTP-06: far above any tool call's arguments, far below what could exhaust memory. */
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;
