/**
 * The server's warnings and errors, as MCP log messages (`notifications/message`) to the hosts
 * connected: what a user never sees on stderr (the school unreachable, a document warning)
 * reaches the host's log view. Only lines the logger already wrote go out, so its redaction
 * (LOG-01, LOG-02) is theirs too; `debug` and `info` stay on stderr. A host's
 * `logging/setLevel` raises the bar (STDIO-07). What was said before a host connected (the
 * start's warnings) is kept, the last few, and sent to each host once it has initialized.
 * @see SECURITY.md STDIO-07
 */
import type { McpServer } from '@modelcontextprotocol/server';
import type { LogLevel } from '../log.js';

type MessageLevel = 'warning' | 'error';

const SENT_LEVELS: Partial<Record<LogLevel, MessageLevel>> = { warn: 'warning', error: 'error' };

/** Lines kept for hosts that connect later; the oldest go first. */
export const KEPT_LOG_LINES = 20;

export interface LogRelay {
  /** A line the logger wrote, with its level. */
  publish(level: LogLevel, line: string): void;
  /** Sends this server's host the lines kept so far once it initializes, and every later one. */
  attach(server: McpServer): void;
}

interface Message {
  readonly level: MessageLevel;
  readonly data: string;
}

export function createLogRelay(): LogRelay {
  const kept: Message[] = [];
  const hosts = new Set<McpServer>();
  const send = (server: McpServer, message: Message) => {
    void server
      .sendLoggingMessage(
        { level: message.level, logger: 'school-mcp', data: message.data },
        server.server.transport?.sessionId,
      )
      .catch(() => undefined);
  };
  return {
    publish(level, line) {
      const sent = SENT_LEVELS[level];
      if (sent === undefined) return;
      const message = { level: sent, data: line };
      kept.push(message);
      if (kept.length > KEPT_LOG_LINES) kept.shift();
      for (const server of hosts) {
        if (server.isConnected()) send(server, message);
        else hosts.delete(server);
      }
    },
    attach(server) {
      const previous = server.server.oninitialized;
      server.server.oninitialized = () => {
        previous?.();
        hosts.add(server);
        for (const message of kept) send(server, message);
      };
    },
  };
}
