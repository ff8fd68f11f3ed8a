import { lazy, Suspense, useEffect } from 'react';

// The overlay is a Radix AlertDialog (about 8 kB gzipped with its focus and scroll locks) that a screen only
// needs once something is submitted: it loads after the screen's first paint, keeping the screen's own
// JavaScript within its budget (tests/budgets), and usePreloadedProcessingOverlay starts that download at once.
const load = () => import('./processing-overlay');
const Overlay = lazy(() => load().then((m) => ({ default: m.ProcessingOverlay })));

/** Starts loading the overlay's code as the screen mounts, so that it is there by the time it is shown. */
export function usePreloadedProcessingOverlay(): void {
  useEffect(() => {
    void load();
  }, []);
}

/** The processing overlay (processing-overlay.tsx), loaded on demand. */
export function LazyProcessingOverlay({ label }: { label: string }) {
  return (
    <Suspense fallback={null}>
      <Overlay label={label} />
    </Suspense>
  );
}
