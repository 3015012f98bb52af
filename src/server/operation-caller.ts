/**
 * The seam between the MCP tools and whoever runs an operation for them: the consent part's
 * caller implements it, and the server never imports that part.
 */
import type { CallToolResult, InputRequiredResult, ServerContext } from '@modelcontextprotocol/server';
import type { Operation } from '../openapi/index.js';
import type { ClientConnection } from './client-connection.js';

/** A tool's answer, or (2026-07-28) a request for the user's input before it can answer. */
export type OperationResult = CallToolResult | InputRequiredResult;

/**
 * Runs one operation for one tool call; the server supplies the MCP request's context and, to
 * callers that reach the user (re-consent), what is known of the client on this connection.
 */
export type OperationCaller = (
  operation: Operation,
  args: Record<string, unknown>,
  context: ServerContext,
  connection?: ClientConnection,
) => Promise<OperationResult>;
