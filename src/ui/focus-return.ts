// Where the focus goes back to when a dialog or the processing overlay closes: to what had it before
// (the trigger), or, when that is gone or disabled meanwhile (a decided request's buttons, a deleted
// user's row), to the nearest sensible place still on the screen.

const TABBABLE = 'a[href], button, input:not([type="hidden"]), select, textarea, [tabindex]:not([tabindex="-1"])';
/** A row of a table or a list: its other controls are the next best place for the focus. */
const ROW = 'tr, [role="row"], li';

/** The element and its ancestors, innermost first: enough to find a sensible place once the element itself is gone. */
export function focusTrail(element: Element | null): Element[] {
  const trail: Element[] = [];
  for (let current = element; current && current !== document.body && current !== document.documentElement; current = current.parentElement) trail.push(current);
  return trail;
}

function usable(element: Element): element is HTMLElement {
  return element instanceof HTMLElement && element.isConnected && !element.matches(':disabled') && element.closest('[inert], [hidden]') === null;
}

/**
 * Focuses the first element of the trail if it can still take the focus; else the first usable control of
 * its row, if the row is still shown; else the nearest focusable container still shown (a table's scroll
 * region, the main content). Returns what got the focus.
 */
export function restoreFocus(trail: readonly Element[]): HTMLElement | null {
  const [target, ...ancestors] = trail;
  if (target && usable(target)) return focus(target);
  for (const ancestor of ancestors) {
    if (!ancestor.isConnected) continue;
    if (ancestor.matches(ROW)) {
      const control = [...ancestor.querySelectorAll(TABBABLE)].find((element) => usable(element) && element.getAttribute('aria-disabled') !== 'true');
      if (control) return focus(control as HTMLElement);
    } else if (usable(ancestor) && (ancestor.hasAttribute('tabindex') || ancestor.tagName === 'MAIN')) return focus(ancestor);
  }
  const main = document.querySelector('main');
  return main ? focus(main) : null;
}

function focus(element: HTMLElement): HTMLElement {
  element.focus();
  return element;
}
