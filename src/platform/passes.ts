/**
 * Background work done in passes, one at a time per process (the mail sender, the webhook deliverer): a kick
 * while a pass runs asks for one more pass after it, so work that arrives meanwhile is never left waiting for
 * the next poll. A pass runs in the async context the passes were made in (at startup), not in that of the request
 * whose commit kicked it: its statements are never counted as the request's (see `countStatements` in db.ts).
 * It runs as background work (`runAsBackground`): on the embedded database, requests go first.
 */
import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';

const background = new AsyncLocalStorage<true>();

/**
 * Runs `fn` as work beside the requests: the embedded database, whose one connection requests and background
 * work share, gives its database calls their turn after the requests waiting (see pglite-thread.mjs), and runs
 * its transactions without holding the server's thread.
 */
export function runAsBackground<T>(fn: () => T): T {
  return background.run(true, fn);
}

/** Whether the caller runs as background work (`runAsBackground`). */
export function isBackgroundWork(): boolean {
  return background.getStore() === true;
}

export interface Passes {
  /** starts a pass now, or one more once the running one ends */
  kick(): void;
  /** resolves once no pass is running */
  idle(): Promise<void>;
  /** no more passes start; resolves once the running one ends */
  stop(): Promise<void>;
}

export function serialPasses(work: () => Promise<unknown>, onError: (err: unknown) => void): Passes {
  const pass = AsyncResource.bind(() => runAsBackground(work));
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const idle = async () => {
    while (running) await running;
  };
  function kick(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = pass()
      .then(() => undefined, onError)
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          kick();
        }
      });
  }
  return {
    kick,
    idle,
    async stop() {
      stopped = true;
      await idle();
    },
  };
}
