/**
 * Background work done in passes, one at a time per process (the mail sender, the webhook deliverer): a kick
 * while a pass runs asks for one more pass after it, so work that arrives meanwhile is never left waiting for
 * the next poll.
 */
export interface Passes {
  /** starts a pass now, or one more once the running one ends */
  kick(): void;
  /** resolves once no pass is running */
  idle(): Promise<void>;
  /** no more passes start; resolves once the running one ends */
  stop(): Promise<void>;
}

export function serialPasses(pass: () => Promise<unknown>, onError: (err: unknown) => void): Passes {
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
