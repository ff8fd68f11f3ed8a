// What the screens do with the Sirene import's marks (issue 17): a closed SIRET is listed as 'Fermé' and cannot be
// chosen for a new role (one already held may be taken off); the lists where new access is chosen ask the server
// for the members' organizations only.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fr } from '../../src/i18n/fr';
import { SiretTab, type SiretTabProps } from '../../src/ui/users/edit/siret-tab';
import { wizardInputs } from '../machines/creation-wizard.model';
import { openWizard, wizardApi } from './creation-wizard-fixtures';

afterEach(cleanup);

const t = fr.userEdit.siret;
const siren = { id: 's1', code: '782416531', name: 'ASSOCIATION LES GENETS', selectAll: false, locked: false };
const open = { id: 'o1', code: '78241653100013', name: 'EHPAD LES GENETS - LYON' };
const closed = { id: 'c1', code: '78241653100039', name: 'SSIAD LES GENETS - BRON', closed: true };

function renderTab(selected: SiretTabProps['selected'], onToggle = vi.fn()) {
  render(
    <SiretTab
      sirens={[siren]}
      selected={selected}
      lists={{ s1: { items: [open, closed], total: 2, loading: false } }}
      searches={{}}
      searchDebounceMs={0}
      disabled={false}
      onSearch={vi.fn()}
      onToggle={onToggle}
      onSelectAll={vi.fn()}
      onClear={vi.fn()}
    />,
  );
  return onToggle;
}

describe('closed SIRETs in the SIRET lists', () => {
  it("shows a closed SIRET labelled 'Fermé', described, and not offered", async () => {
    const onToggle = renderTab([]);
    const box = screen.getByRole<HTMLInputElement>('checkbox', { name: new RegExp(closed.name) });
    expect(box.disabled).toBe(true);
    expect(document.getElementById(box.getAttribute('aria-describedby')!)?.textContent).toBe(t.closedHint);
    expect(within(box.closest('label')!).getByText(t.closed)).toBeTruthy();
    await userEvent.click(box);
    expect(onToggle).not.toHaveBeenCalled();

    const other = screen.getByRole<HTMLInputElement>('checkbox', { name: new RegExp(open.name) });
    expect(other.disabled).toBe(false);
    expect(other.getAttribute('aria-describedby')).toBeNull();
    expect(within(other.closest('label')!).queryByText(t.closed)).toBeNull();
  });

  it('lets a closed SIRET already chosen be taken off', async () => {
    const onToggle = renderTab([{ id: closed.id, code: closed.code, name: closed.name, sirenId: siren.id }]);
    const box = screen.getByRole<HTMLInputElement>('checkbox', { name: new RegExp(closed.name) });
    expect(box.checked).toBe(true);
    expect(box.disabled).toBe(false);
    await userEvent.click(box);
    expect(onToggle).toHaveBeenCalledWith({ id: closed.id, code: closed.code, name: closed.name, sirenId: siren.id });
  });
});

describe('the lists where new access is chosen', () => {
  it("asks for the members' SIRENs only in the creation wizard", async () => {
    const api = wizardApi();
    await openWizard(wizardInputs.userByBackOffice!, api);
    await vi.waitFor(() => expect(api.reads.some((url) => url.search.includes('type=SIREN'))).toBe(true));
    const sirenReads = api.reads.filter((url) => url.search.includes('type=SIREN'));
    expect(sirenReads.length).toBeGreaterThan(0);
    expect(sirenReads.every((url) => url.searchParams.get('forNewAccess') === 'true')).toBe(true);
  });
});
