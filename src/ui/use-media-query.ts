import { useCallback, useSyncExternalStore } from 'react';

/**
 * Whether a media query matches, followed as the window changes size or zoom. Without matchMedia (a test's jsdom)
 * it answers `fallback`.
 */
export function useMediaQuery(query: string, fallback: boolean): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = typeof window.matchMedia === 'function' ? window.matchMedia(query) : null;
      list?.addEventListener('change', onChange);
      return () => list?.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => (typeof window.matchMedia === 'function' ? window.matchMedia(query).matches : fallback));
}

/** Tailwind's `sm` breakpoint (40rem, 640 px at the browser's default text size): from there the lists are tables. */
export const SM_UP = '(min-width: 40rem)';
