import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as Tooltip from '@radix-ui/react-tooltip';
import { RolesCell } from '../../src/ui/users/roles-cell';

afterEach(cleanup);

// jsdom has no ResizeObserver, which Radix's positioning uses; these tests look at what is shown, not where.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

const roles = [
  { code: 'ADMIN_ADHERENT', label: 'Admin Adhérent', tone: 'purple' },
  { code: 'COMPTABLE', label: 'Comptable', tone: 'blue' },
  { code: 'PAIE', label: 'Paie', tone: 'teal' },
] as const;

function renderCell() {
  render(
    <Tooltip.Provider>
      <RolesCell roles={roles.map((r) => ({ ...r }))} />
      <button type="button">Ailleurs</button>
    </Tooltip.Provider>,
  );
  return screen.getByRole('button', { name: '2 autre(s) rôle(s) : Comptable, Paie' });
}

const tooltip = () => screen.queryByRole('tooltip');

describe("the roles cell's '+n'", () => {
  it('lists the other roles on a tap (a touch screen has no hover), until a tap elsewhere', async () => {
    const user = userEvent.setup();
    const more = renderCell();
    expect(more.textContent).toBe('+2');
    await user.pointer({ keys: '[TouchA]', target: more });
    expect(tooltip()?.textContent).toContain('Comptable');
    expect(tooltip()?.textContent).toContain('Paie');
    await user.pointer({ keys: '[TouchA]', target: screen.getByRole('button', { name: 'Ailleurs' }) });
    await waitFor(() => expect(tooltip()).toBeNull());
  });

  it('lists them on keyboard focus, and Escape closes the list', async () => {
    const user = userEvent.setup();
    renderCell();
    await user.tab();
    expect(tooltip()?.textContent).toContain('Comptable');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(tooltip()).toBeNull());
  });

  it('keeps the list open when the focused button is pressed with Enter', async () => {
    const user = userEvent.setup();
    renderCell();
    await user.tab();
    await user.keyboard('{Enter}');
    expect(tooltip()?.textContent).toContain('Paie');
  });
});
