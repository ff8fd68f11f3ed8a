import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Combobox, type ComboboxOption } from '../../src/ui/combobox';

afterEach(cleanup);

const SIRETS: ComboboxOption[] = [
  { value: 'a', label: 'Clinique des Tilleuls - Lyon (78744179900011)' },
  { value: 'b', label: 'Clinique des Tilleuls - Nantes (78744179900029)' },
  { value: 'c', label: 'Clinique des Tilleuls - Épinal (78744179900037)' },
];

/** The screen around the combobox: the choice lives outside it (the URL), as on /utilisateurs. */
function ClientSide({ initial = '', onSelect = (_: string) => {}, withAll = true, options = SIRETS }) {
  const [value, setValue] = useState(initial);
  return (
    <Combobox
      label="SIRET"
      options={options}
      selected={options.find((o) => o.value === value) ?? null}
      allLabel={withAll ? 'Tous' : undefined}
      onSelect={(v) => {
        onSelect(v);
        setValue(v);
      }}
    />
  );
}

const input = () => screen.getByRole('combobox', { name: 'SIRET' });
const optionNames = () => screen.queryAllByRole('option').map((o) => o.textContent);
const status = () => screen.getByRole('status').textContent;

/** Focus by keyboard (which selects the shown label, so that typing replaces it), then type. */
async function typeInto(user: ReturnType<typeof userEvent.setup>, text: string) {
  await user.tab();
  expect(input()).toBe(document.activeElement);
  await user.keyboard(text);
}

describe('the combobox (downshift useCombobox)', () => {
  it("shows the chosen option's label while closed, and 'Tous' when none is chosen", () => {
    render(<ClientSide initial="b" />);
    expect(input()).toHaveProperty('value', 'Clinique des Tilleuls - Nantes (78744179900029)');
    expect(input().getAttribute('aria-expanded')).toBe('false');
    cleanup();
    render(<ClientSide />);
    expect(input()).toHaveProperty('value', 'Tous');
  });

  it("opens on ArrowDown with 'Tous' first and the chosen option marked selected", async () => {
    const user = userEvent.setup();
    render(<ClientSide initial="b" />);
    await user.tab();
    await user.keyboard('{ArrowDown}');
    expect(input().getAttribute('aria-expanded')).toBe('true');
    expect(optionNames()).toEqual(['Tous', ...SIRETS.map((o) => o.label)]);
    expect(screen.getByRole('option', { name: /Nantes/ }).getAttribute('aria-selected')).toBe('true');
    expect(status()).toBe('4 option(s) disponible(s)');
  });

  it('narrows the options as the person types, ignoring case and accents, without the Tous option', async () => {
    const user = userEvent.setup();
    render(<ClientSide />);
    await typeInto(user, 'nan');
    expect(optionNames()).toEqual(['Clinique des Tilleuls - Nantes (78744179900029)']);
    await user.clear(input());
    await user.keyboard('EPINAL');
    expect(optionNames()).toEqual(['Clinique des Tilleuls - Épinal (78744179900037)']);
    await user.clear(input());
    await user.keyboard('900011');
    expect(optionNames()).toEqual(['Clinique des Tilleuls - Lyon (78744179900011)']);
  });

  it('chooses the highlighted option with ArrowDown and Enter, then shows its label', async () => {
    const onSelect = vi.fn();
    const user = userEvent.setup();
    render(<ClientSide onSelect={onSelect} />);
    await typeInto(user, 'tilleuls');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(input().getAttribute('aria-activedescendant')).toBe(screen.getByRole('option', { name: /Nantes/ }).id);
    await user.keyboard('{Enter}');
    expect(onSelect).toHaveBeenCalledExactlyOnceWith('b');
    expect(input()).toHaveProperty('value', 'Clinique des Tilleuls - Nantes (78744179900029)');
    expect(input().getAttribute('aria-expanded')).toBe('false');
  });

  it('chooses an option by click', async () => {
    const onSelect = vi.fn();
    const user = userEvent.setup();
    render(<ClientSide onSelect={onSelect} />);
    await user.click(screen.getByRole('button', { name: 'Afficher les options : SIRET' }));
    await user.click(screen.getByRole('option', { name: /Épinal/ }));
    expect(onSelect).toHaveBeenCalledExactlyOnceWith('c');
    expect(input()).toHaveProperty('value', 'Clinique des Tilleuls - Épinal (78744179900037)');
  });

  it('restores the chosen label on Escape, keeping the choice, even on a second Escape', async () => {
    const onSelect = vi.fn();
    const user = userEvent.setup();
    render(<ClientSide initial="a" onSelect={onSelect} />);
    await typeInto(user, 'nan');
    expect(input()).toHaveProperty('value', 'nan');
    await user.keyboard('{Escape}');
    expect(input().getAttribute('aria-expanded')).toBe('false');
    expect(input()).toHaveProperty('value', 'Clinique des Tilleuls - Lyon (78744179900011)');
    await user.keyboard('{Escape}');
    expect(input()).toHaveProperty('value', 'Clinique des Tilleuls - Lyon (78744179900011)');
    expect(onSelect).not.toHaveBeenCalled();
  });

  it('restores the chosen label when focus leaves with nothing highlighted', async () => {
    const user = userEvent.setup();
    render(
      <>
        <ClientSide initial="a" />
        <button type="button">Après</button>
      </>,
    );
    await typeInto(user, 'zzz');
    await user.tab();
    expect(input()).toHaveProperty('value', 'Clinique des Tilleuls - Lyon (78744179900011)');
  });

  it("clears the choice with the 'Tous' option", async () => {
    const onSelect = vi.fn();
    const user = userEvent.setup();
    render(<ClientSide initial="c" onSelect={onSelect} />);
    await user.tab();
    await user.keyboard('{ArrowDown}');
    await user.click(screen.getByRole('option', { name: 'Tous' }));
    expect(onSelect).toHaveBeenCalledExactlyOnceWith('');
    expect(input()).toHaveProperty('value', 'Tous');
  });

  it("says 'Aucun résultat', visibly and in the status region, when nothing matches", async () => {
    const user = userEvent.setup();
    render(<ClientSide />);
    await typeInto(user, 'zzz');
    expect(optionNames()).toEqual([]);
    expect(status()).toBe('Aucun résultat');
    expect(screen.getAllByText('Aucun résultat')).toHaveLength(2);
  });

  it('keeps the highlight on the same option when the options change under it (an answer arriving), and drops it when that option is gone', async () => {
    const onSelect = vi.fn();
    const user = userEvent.setup();
    const { rerender } = render(<ClientSide onSelect={onSelect} />);
    await user.tab();
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}');
    const highlighted = () => input().getAttribute('aria-activedescendant');
    expect(document.getElementById(highlighted()!)?.textContent).toBe(SIRETS[1]!.label);
    // The same options in another order: the highlight follows 'Nantes', and Enter chooses it.
    rerender(<ClientSide onSelect={onSelect} options={[SIRETS[2]!, SIRETS[0]!, SIRETS[1]!]} />);
    await waitFor(() => expect(document.getElementById(highlighted() ?? '')?.textContent).toBe(SIRETS[1]!.label));
    await user.keyboard('{ArrowUp}{ArrowDown}');
    expect(document.getElementById(highlighted()!)?.textContent).toBe(SIRETS[1]!.label);
    // 'Nantes' gone: nothing is highlighted, and Enter chooses nothing.
    rerender(<ClientSide onSelect={onSelect} options={[SIRETS[2]!, SIRETS[0]!]} />);
    await waitFor(() => expect(highlighted()).toBeFalsy());
    await user.keyboard('{Enter}');
    expect(onSelect).not.toHaveBeenCalled();
  });

  it("offers no 'Tous' without allLabel (a SIREN's only SIRET)", async () => {
    const user = userEvent.setup();
    render(<ClientSide withAll={false} options={SIRETS.slice(0, 1)} initial="a" />);
    await user.tab();
    await user.keyboard('{ArrowDown}');
    expect(optionNames()).toEqual([SIRETS[0]!.label]);
  });
});

/** The SIREN filter: options come from the server for the search in force; the text is reported once typing pauses. */
function ServerSide({ onSearch, results, loading = false }: { onSearch: (text: string) => void; results: (text: string) => ComboboxOption[]; loading?: boolean }) {
  const [text, setText] = useState('');
  const [value, setValue] = useState('');
  const options = results(text);
  const [chosen, setChosen] = useState<ComboboxOption | null>(null);
  return (
    <Combobox
      label="SIREN"
      options={options}
      selected={value ? chosen : null}
      allLabel="Tous"
      loading={loading}
      search={{
        value: text,
        delayMs: 300,
        onSearch: (t) => {
          onSearch(t);
          setText(t);
        },
      }}
      onSelect={(v) => {
        setValue(v);
        setChosen(options.find((o) => o.value === v) ?? null);
      }}
    />
  );
}

const SIRENS: ComboboxOption[] = [
  { value: 's1', label: 'Clinique des Tilleuls (787441799)' },
  { value: 's2', label: 'EHPAD Les Glycines (469860456)' },
];
const sirenInput = () => screen.getByRole('combobox', { name: 'SIREN' });
const serverSearch = (text: string) => SIRENS.filter((o) => o.label.toLowerCase().includes(text.toLowerCase()));

describe('the combobox with a server-side search', () => {
  it("reports the typed text once typing pauses, says 'Recherche en cours...' meanwhile, then lists what the server found", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const onSearch = vi.fn();
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime.bind(vi) });
      render(<ServerSide onSearch={onSearch} results={serverSearch} />);
      await user.tab();
      await user.keyboard('glyc');
      expect(onSearch).not.toHaveBeenCalled();
      expect(status()).toBe('Recherche en cours...');
      act(() => vi.advanceTimersByTime(300));
      expect(onSearch).toHaveBeenCalledExactlyOnceWith('glyc');
      expect(status()).toBe('1 option(s) disponible(s)');
      expect(optionNames()).toEqual(['EHPAD Les Glycines (469860456)']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('resets the search on choosing, and keeps the chosen label when a later search leaves its option out', async () => {
    const onSearch = vi.fn();
    const user = userEvent.setup();
    render(<ServerSide onSearch={onSearch} results={serverSearch} />);
    await user.tab();
    await user.keyboard('tilleuls');
    await waitFor(() => expect(onSearch).toHaveBeenLastCalledWith('tilleuls'));
    await user.keyboard('{ArrowDown}{Enter}');
    expect(sirenInput()).toHaveProperty('value', 'Clinique des Tilleuls (787441799)');
    // Choosing ends the search: the full list comes back for the next opening.
    await waitFor(() => expect(onSearch).toHaveBeenLastCalledWith(''));
    await user.keyboard('{ArrowDown}');
    expect(optionNames()).toEqual(['Tous', ...SIRENS.map((o) => o.label)]);
    await user.keyboard('{Escape}');
    await user.keyboard('{Control>}a{/Control}glyc');
    await waitFor(() => expect(optionNames()).toEqual(['EHPAD Les Glycines (469860456)']));
    await user.keyboard('{Escape}');
    expect(sirenInput()).toHaveProperty('value', 'Clinique des Tilleuls (787441799)');
  });

  it("announces the loading of the options as 'Recherche en cours...'", async () => {
    const user = userEvent.setup();
    render(<ServerSide onSearch={() => {}} results={() => []} loading />);
    await user.tab();
    await user.keyboard('{ArrowDown}');
    expect(status()).toBe('Recherche en cours...');
    expect(screen.queryByText('Aucun résultat')).toBeNull();
  });
});
