/**
 * How a request moves through the hosted server: an ordered list of named steps, each of which
 * answers the request or hands it to the next (`next`), as Koa and Hono compose middleware; a step
 * that wraps the rest (catching its failure, adding to its answer) awaits `next` inside. The last
 * step answers by the request's route, through that route's own steps.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HostedRoute, HostedRouteName } from './hosted-route.js';

export type Step<E> = (exchange: E, next: () => Promise<void>) => Promise<void>;

export interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
}

/** A request once its route is known, with the client's address as HOST-41 decides it. */
export interface HostedExchange<R = HostedRoute> extends Exchange {
  readonly route: R;
  readonly clientAddress: string;
}

/** Each route's steps, the last of which answers; the steps before it refuse what it must not see. */
export type RouteSteps = {
  readonly [N in HostedRouteName]: readonly Step<HostedExchange<Extract<HostedRoute, { name: N }>>>[];
};

export function composeSteps<E>(steps: readonly Step<E>[]): (exchange: E) => Promise<void> {
  // Async, so that a step that throws rejects like one whose promise does.
  const run = async (exchange: E, index: number): Promise<void> => {
    if (index < steps.length) return steps[index]!(exchange, () => run(exchange, index + 1));
  };
  return (exchange) => run(exchange, 0);
}

/** The last step: the request goes through its route's steps. */
export function answerByRoute(routes: RouteSteps): Step<HostedExchange> {
  const composed = new Map(
    Object.entries(routes).map(([name, steps]) => [name, composeSteps(steps as readonly Step<HostedExchange>[])]),
  );
  return (exchange) => composed.get(exchange.route.name)!(exchange);
}
