import { useEffect, useRef, useState, type FocusEvent, type MouseEvent } from 'react';
import { useCombobox, type UseComboboxState, type UseComboboxStateChangeOptions } from 'downshift';
import { frLists as fr } from '../i18n/fr-lists';

export interface ComboboxOption {
  value: string;
  label: string;
}

export interface ComboboxProps {
  label: string;
  placeholder?: string;
  /** With `search`: what the server found for the text in force; without: every option (filtered here). */
  options: ComboboxOption[];
  /** The chosen option; null: none (shown as `allLabel` when offered). Kept apart from `options`, which a search may narrow. */
  selected: ComboboxOption | null;
  /** A first option choosing none (value ''), e.g. 'Tous'; offered while nothing is typed. */
  allLabel?: string;
  onSelect: (value: string) => void;
  /** Server-side search: the text in force, and `onSearch` once typing pauses for `delayMs`. */
  search?: { value: string; delayMs: number; onSearch: (text: string) => void };
  /** The options are being fetched. */
  loading?: boolean;
}

const t = fr.combobox;
const ALL = '';
const itemToString = (item: ComboboxOption | null) => item?.label ?? '';
const itemToKey = (item: ComboboxOption | null) => item?.value;
const fold = (text: string) => text.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();

/** Closing the list never leaves typed text behind, and Escape never clears the choice: both show the chosen option again. */
function stateReducer(state: UseComboboxState<ComboboxOption>, { type, changes }: UseComboboxStateChangeOptions<ComboboxOption>) {
  if (type === useCombobox.stateChangeTypes.InputKeyDownEscape) return { ...changes, selectedItem: state.selectedItem, inputValue: itemToString(state.selectedItem) };
  if (changes.isOpen === false && changes.selectedItem === state.selectedItem) return { ...changes, inputValue: itemToString(state.selectedItem) };
  return changes;
}

/**
 * A combobox with search (downshift's useCombobox, ARIA 1.2 pattern): type to narrow the options, arrows and Enter
 * to choose, Escape to close and restore the choice. Fixed width: options arriving late do not move the page.
 */
export function Combobox({ label, placeholder, options, selected, allLabel, onSelect, search, loading = false }: ComboboxProps) {
  const all = allLabel === undefined ? null : { value: ALL, label: allLabel };
  const chosen = selected ?? all;
  // What the person typed since opening the list; null: the input shows the chosen option.
  const [typed, setTyped] = useState<string | null>(null);
  const query = typed?.trim() ?? '';
  // Server results are narrowed here too, so that the list follows the typing before they arrive.
  const found = query ? options.filter((o) => fold(o.label).includes(fold(query))) : options;
  const items = all && !query ? [all, ...found] : found;
  const waiting = loading || (search !== undefined && query !== search.value);

  const onSearch = useRef(search?.onSearch);
  onSearch.current = search?.onSearch;
  const inForce = search?.value;
  const delayMs = search?.delayMs ?? 0;
  useEffect(() => {
    if (inForce === undefined || query === inForce) return;
    const timer = setTimeout(() => onSearch.current?.(query), query ? delayMs : 0);
    return () => clearTimeout(timer);
  }, [query, inForce, delayMs]);

  const { isOpen, highlightedIndex, setHighlightedIndex, getLabelProps, getInputProps, getToggleButtonProps, getMenuProps, getItemProps } = useCombobox<ComboboxOption>({
    items,
    itemToString,
    itemToKey,
    selectedItem: chosen,
    inputValue: typed ?? itemToString(chosen),
    stateReducer,
    onInputValueChange: ({ type, inputValue }) => {
      if (type === useCombobox.stateChangeTypes.InputChange) setTyped(inputValue);
      // A new choice from outside (the URL) shows once the list closes, not over what the person is typing.
      else if (type !== useCombobox.stateChangeTypes.ControlledPropUpdatedSelectedItem) setTyped(null);
    },
    onSelectedItemChange: ({ selectedItem }) => {
      const value = selectedItem?.value ?? ALL;
      if (value !== (selected?.value ?? ALL)) onSelect(value);
    },
  });

  // downshift keeps the highlight as a position: when the options change under it (a search's answer arriving),
  // it follows the highlighted option to its new position, or drops when that option is gone, so that Enter
  // never chooses an option the person did not see highlighted.
  const keys = items.map((o) => o.value).join('\n');
  const shown = useRef({ keys, items });
  useEffect(() => {
    const before = shown.current;
    shown.current = { keys, items };
    if (before.keys === keys || highlightedIndex < 0) return;
    const value = before.items[highlightedIndex]?.value;
    const index = value === undefined ? -1 : items.findIndex((o) => o.value === value);
    if (index !== highlightedIndex) setHighlightedIndex(index);
  });

  // Focus selects the shown label, so that typing replaces it (a click's mouseup would otherwise drop the selection).
  const justFocused = useRef(false);
  const selectAll = (event: FocusEvent<HTMLInputElement>) => {
    event.currentTarget.select();
    justFocused.current = true;
  };
  const keepSelection = (event: MouseEvent<HTMLInputElement>) => {
    if (justFocused.current) event.preventDefault();
    justFocused.current = false;
  };

  const status = waiting ? t.searching : items.length === 0 ? t.noResult : null;
  return (
    <div className="relative flex w-64 max-w-full flex-col gap-1">
      <label {...getLabelProps()} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="flex rounded-lg border border-slate-300 bg-white">
        <input
          // The typed text is kept here, in the input's own change event: kept only through onInputValueChange,
          // it arrives a render late, and keys typed in between are lost (downshift issue 1108).
          {...getInputProps({ onFocus: selectAll, onMouseUp: keepSelection, onChange: (event) => setTyped(event.currentTarget.value) })}
          placeholder={placeholder}
          className="min-w-0 flex-1 truncate rounded-l-lg bg-transparent px-2 py-2 text-sm"
        />
        <button {...getToggleButtonProps()} type="button" aria-label={t.showOptions(label)} className="rounded-r-lg px-2 text-slate-600 hover:bg-slate-100">
          <svg aria-hidden="true" viewBox="0 0 20 20" className={`h-4 w-4 transition-transform ${isOpen ? 'rotate-180' : ''}`} fill="currentColor">
            <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4z" />
          </svg>
        </button>
      </div>
      <div className={isOpen ? 'absolute top-full right-0 left-0 z-30 mt-1 rounded-lg bg-white shadow-lg ring-1 ring-slate-200' : 'hidden'}>
        <ul {...getMenuProps()} className={items.length > 0 ? 'max-h-72 overflow-y-auto py-1' : 'hidden'}>
          {isOpen &&
            items.map((item, index) => (
              <li
                key={item.value}
                {...getItemProps({ item, index })}
                className={`cursor-pointer px-3 py-2 text-sm ${highlightedIndex === index ? 'bg-brand-100 outline-2 -outline-offset-2 outline-brand-600' : ''} ${item.value === chosen?.value ? 'font-semibold text-brand-800' : 'text-slate-800'}`}
              >
                {item.label}
              </li>
            ))}
        </ul>
        {status && (
          <p aria-hidden="true" className="px-3 py-2 text-sm text-slate-600">
            {status}
          </p>
        )}
      </div>
      {/* Announced: searching, no result, or how many options the list holds. */}
      <p role="status" className="sr-only">
        {isOpen ? (status ?? t.results(items.length)) : ''}
      </p>
    </div>
  );
}
