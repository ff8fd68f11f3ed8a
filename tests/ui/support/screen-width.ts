import { act } from '@testing-library/react';
import { vi } from 'vitest';

/**
 * A stand-in for window.matchMedia at a given width (px; a rem query at 16 px a rem), whose 'change' listeners a test
 * can fire with `resize`. Undone by vi.unstubAllGlobals().
 */
export function stubScreenWidth(width: number) {
  const listeners = new Set<() => void>();
  const bound = (media: string, name: 'min' | 'max') => {
    const found = new RegExp(`${name}-width:\\s*([\\d.]+)(px|rem)`).exec(media);
    return found ? Number(found[1]) * (found[2] === 'rem' ? 16 : 1) : null;
  };
  const matches = (media: string) => {
    const min = bound(media, 'min');
    const max = bound(media, 'max');
    return (min === null || width >= min) && (max === null || width <= max);
  };
  vi.stubGlobal('matchMedia', (media: string) => {
    const query = {
      media,
      get matches() {
        return matches(media);
      },
      addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
      removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
    };
    return query;
  });
  return {
    resize(to: number) {
      width = to;
      act(() => listeners.forEach((listener) => listener()));
    },
  };
}
