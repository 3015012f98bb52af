/**
 * Preloaded into a server under test with `NODE_OPTIONS=--import=<this file>`: registers module
 * hooks that append every URL the process resolves to the file named by
 * SCHOOL_MCP_TEST_RESOLVED_LOG. A test reads what the child loaded without the product knowing.
 */
import { register } from 'node:module';

register(new URL('./record-resolved-hooks.mjs', import.meta.url), {
  data: { logFile: process.env.SCHOOL_MCP_TEST_RESOLVED_LOG },
});
