import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { DataTable } from '../../src/ui/data-table';

// jsdom lays nothing out: the widths of the frame and of its table are given here, and the ResizeObserver
// the frame is followed with is fired by hand, as a browser would on a resize.
let widths = { scroll: 600, client: 600 };
const observers: (() => void)[] = [];

beforeEach(() => {
  widths = { scroll: 600, client: 600 };
  vi.stubGlobal(
    'ResizeObserver',
    class {
      constructor(callback: () => void) {
        observers.push(callback);
      }
      observe() {}
      disconnect() {}
    },
  );
  vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockImplementation(() => widths.scroll);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(() => widths.client);
});

afterEach(() => {
  cleanup();
  observers.length = 0;
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

function renderTable(updating = false) {
  render(
    <DataTable caption="Liste des utilisateurs" updating={updating} columns={[{ label: 'Nom', sortKey: 'name' }, { label: 'Actions', align: 'right' }]} sort="name" order="asc" onSort={() => undefined}>
      <tr>
        <td>Camille Essai</td>
        <td>
          <button type="button">Modifier</button>
        </td>
      </tr>
    </DataTable>,
  );
  return screen.getByRole('region', { name: 'Liste des utilisateurs' });
}

describe('DataTable frame', () => {
  it('is a region named by the caption of its table', () => {
    const frame = renderTable();
    expect(screen.getByRole('table', { name: 'Liste des utilisateurs' })).toBeTruthy();
    expect(frame.contains(screen.getByRole('table'))).toBe(true);
  });

  it('says it is busy while it shows the previous rows, and stops saying so once the asked-for ones are shown', () => {
    renderTable(true);
    expect(screen.getByRole('table').getAttribute('aria-busy')).toBe('true');
    cleanup();
    renderTable(false);
    expect(screen.getByRole('table').hasAttribute('aria-busy')).toBe(false);
  });

  it('stays out of the tab order and pins nothing while the table fits', () => {
    const frame = renderTable();
    expect(frame.hasAttribute('tabindex')).toBe(false);
    expect(screen.getByRole('table').className).not.toContain('sticky');
  });

  it('takes the focus (so that arrows scroll it) and pins the actions column once the table is wider, and stops when it fits again', () => {
    const frame = renderTable();
    widths = { scroll: 900, client: 320 };
    act(() => observers.forEach((fire) => fire()));
    expect(frame.getAttribute('tabindex')).toBe('0');
    expect(screen.getByRole('table').className).toContain('[&_tr>*:last-child]:sticky');

    widths = { scroll: 600, client: 600 };
    act(() => observers.forEach((fire) => fire()));
    expect(frame.hasAttribute('tabindex')).toBe(false);
    expect(screen.getByRole('table').className).not.toContain('sticky');
  });
});
