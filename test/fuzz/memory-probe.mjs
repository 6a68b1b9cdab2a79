// Test-only preload for the fuzz run's API process (started with --expose-gc and an IPC channel):
// on the message "gc" it collects garbage and answers with process.memoryUsage(), so the test
// compares memory after collection instead of RSS that V8 gives back to the OS lazily.
process.on('message', (message) => {
  if (message !== 'gc') return;
  globalThis.gc();
  process.send(process.memoryUsage());
});
