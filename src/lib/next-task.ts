/**
 * Resolves in a later task of the event loop, so that what follows runs after the browser has had the chance to
 * paint and to answer input: a long start-up split in tasks of its own (issue 18, the phone's Total Blocking Time).
 * `scheduler.yield()` where the browser has it (it keeps the continuation ahead of other tasks), else a
 * `setTimeout` of 0.
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
