import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as Tooltip from '@radix-ui/react-tooltip';
import { ReasonButton } from '../../src/ui/reason-button';

afterEach(cleanup);

// jsdom has no ResizeObserver, which Radix's positioning uses; these tests look at what is shown, not where.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

function renderButton(reason: string | null, disabled = false) {
  const onClick = vi.fn();
  render(
    <Tooltip.Provider>
      <button type="button">Avant</button>
      <ReasonButton reason={reason} disabled={disabled} onClick={onClick} aria-label="Modifier Camille Essai" className="">
        Modifier
      </ReasonButton>
    </Tooltip.Provider>,
  );
  return { onClick, button: screen.getByRole('button', { name: 'Modifier Camille Essai' }) };
}

/** The texts the element points at (Radix adds its open tooltip's id to ours). */
const describedBy = (element: HTMLElement) => (element.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean).map((id) => document.getElementById(id)?.textContent);

describe('a button that says why it cannot be used', () => {
  it('stays in the Tab order while unavailable, says why on focus and to screen readers, and does nothing when pressed', async () => {
    const user = userEvent.setup();
    const { onClick, button } = renderButton('Vous ne pouvez pas modifier cet utilisateur.');
    await user.tab();
    await user.tab();
    expect(document.activeElement).toBe(button);
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(button.hasAttribute('disabled')).toBe(false);
    expect(describedBy(button)[0]).toBe('Vous ne pouvez pas modifier cet utilisateur.');
    expect((await screen.findByRole('tooltip')).textContent).toContain('Vous ne pouvez pas modifier cet utilisateur.');
    await user.keyboard('{Enter}');
    await user.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });

  it('acts when available, with no reason and no tooltip', async () => {
    const user = userEvent.setup();
    const { onClick, button } = renderButton(null);
    await user.tab();
    await user.tab();
    expect(button.hasAttribute('aria-disabled')).toBe(false);
    expect(button.hasAttribute('aria-describedby')).toBe(false);
    expect(screen.queryByRole('tooltip')).toBeNull();
    await user.keyboard('{Enter}');
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('is natively disabled while busy, with nothing to explain', () => {
    const { button } = renderButton('Aucune modification', true);
    expect(button.hasAttribute('disabled')).toBe(true);
    expect(button.hasAttribute('aria-disabled')).toBe(false);
    expect(button.hasAttribute('aria-describedby')).toBe(false);
  });
});
