import { useDeferredValue, useEffect, useState, type ReactNode } from 'react';

/** Whether a FirstScreen has been drawn in this page already: the next ones (a navigation within the app) draw at once. */
let firstScreenDrawn = false;

/**
 * The page's first screen, drawn in a render React may interrupt (issue 18): `fallback` is committed first, then
 * `children` render as a deferred update, in slices of a few milliseconds between which a phone paints and answers
 * input, instead of one long task (the screen's render came in through the router's store, which React renders in
 * one go). Once a FirstScreen has been drawn, the others render in the same render as their route, without the fallback
 * (a page opened on a screen without it, e.g. /dashboard, still defers the first of them it navigates to, once).
 * The fallback fills the window's height: the shell's footer stays below the fold until the screen is drawn, instead
 * of being pushed down by it (a layout shift of 0.13 on a phone).
 */
export function FirstScreen({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  const [deferred] = useState(() => !firstScreenDrawn);
  const ready = useDeferredValue(true, !deferred);
  useEffect(() => {
    if (ready) firstScreenDrawn = true;
  }, [ready]);
  return ready ? children : <div className="min-h-screen">{fallback}</div>;
}
