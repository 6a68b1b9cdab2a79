// A task run every `intervalMs`, never twice at once: a tick that finds the previous run still
// busy is skipped instead of queueing behind it.
export function runEvery(intervalMs: number, task: () => Promise<void>, onError: (err: unknown) => void): { stop(): Promise<void> } {
  let busy: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (busy) return;
    busy = task()
      .catch(onError)
      .finally(() => {
        busy = undefined;
      });
  }, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await busy;
    },
  };
}
