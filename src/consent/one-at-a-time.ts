/**
 * Runs async tasks strictly one after another, in call order. Token requests go through one of
 * these: a request that does not wait (consent comes back as pending at once) is short, and two
 * calls arriving together must not both find no flow running and both try to open one; the second
 * finds the first one's flow and joins it.
 */
export type TaskQueue = <T>(task: () => Promise<T>) => Promise<T>;

export function oneAtATime(): TaskQueue {
  let tail: Promise<unknown> = Promise.resolve();
  return (task) => {
    const run = tail.then(task, task);
    tail = run.catch(() => undefined);
    return run;
  };
}
