/**
 * Background work done in passes, one at a time per process (the mail sender, the webhook deliverer): a kick
 * while a pass runs asks for one more pass after it, so work that arrives meanwhile is never left waiting for
 * the next poll. A pass runs in the async context the passes were made in (at startup), not in that of the request
 * whose commit kicked it: its statements are never counted as the request's (see `countStatements` in db.ts).
 */
import { AsyncResource } from 'node:async_hooks';

export interface Passes {
  /** starts a pass now, or one more once the running one ends */
  kick(): void;
  /** resolves once no pass is running */
  idle(): Promise<void>;
  /** no more passes start; resolves once the running one ends */
  stop(): Promise<void>;
}

export function serialPasses(work: () => Promise<unknown>, onError: (err: unknown) => void): Passes {
  const pass = AsyncResource.bind(work);
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
