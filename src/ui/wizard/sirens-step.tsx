import { useId } from 'react';
import type { SirenOption } from '../../domain/user-create';
import type { PageItem } from '../../domain/pagination';
import { fr } from '../../i18n/fr';
import { DebouncedSearchInput } from '../debounced-search-input';
import { Pagination } from '../pagination';

const t = fr.userCreate.sirens;

export interface SirensStepProps {
  /** Admin mode: one SIREN, by radio button. */
  single: boolean;
  chosenIds: readonly string[];
  search: string;
  searchDebounceMs: number;
  onSearch: (text: string) => void;
  /** The page shown (10 per page). */
  options: SirenOption[];
  loading: boolean;
  pagination: { page: number; totalPages: number; items: PageItem[]; onPage: (page: number) => void };
  /** Select all on this search: every result (null while they are counted), or too many to take at once. */
  selectAll: { results: SirenOption[] | null; tooMany: number | null } | null;
  disabled: boolean;
  onToggle: (siren: SirenOption) => void;
  onChoose: (siren: SirenOption) => void;
  onSelectAll: (sirens: SirenOption[]) => void;
  onDeselectAll: (sirenIds: string[]) => void;
}

const label = (s: SirenOption) => s.name || fr.userProfile.sirenFallback(s.code);

/** Step 2 (spec §2): the SIRENs, searched and paged by 10; checkboxes and 'select all on this search', or one radio button in admin mode. */
export function SirensStep(props: SirensStepProps) {
  const { single, chosenIds, options, loading, selectAll, disabled } = props;
  const name = useId();
  const results = selectAll?.results ?? null;
  const allChosen = results !== null && results.length > 0 && results.every((s) => chosenIds.includes(s.id));
  return (
    <div className="space-y-4">
      {single && <p className="text-sm text-slate-700">{t.adminHint}</p>}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <DebouncedSearchInput value={props.search} label={t.searchLabel} placeholder={t.search} delayMs={props.searchDebounceMs} onSearch={props.onSearch} />
        <span className="text-sm text-slate-700" aria-live="polite">
          {t.chosen(chosenIds.length)}
        </span>
      </div>
      {selectAll && (
        <div>
          <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
            <input
              type="checkbox"
              className="h-4 w-4 accent-brand-600"
              checked={allChosen}
              disabled={disabled || results === null || results.length === 0 || selectAll.tooMany !== null}
              aria-describedby={selectAll.tooMany !== null ? `${name}-too-many` : undefined}
              onChange={() => results && (allChosen ? props.onDeselectAll(results.map((s) => s.id)) : props.onSelectAll(results))}
            />
            {t.selectAll}
          </label>
          {selectAll.tooMany !== null && (
            <p id={`${name}-too-many`} className="mt-1 text-sm text-slate-600">
              {t.selectAllTooMany(selectAll.tooMany)}
            </p>
          )}
        </div>
      )}
      {/* Always there, so that 'loading' and 'none found' after a search are announced. */}
      <p role="status" className="text-sm text-slate-600">
        {loading ? t.loading : options.length === 0 ? t.none : ''}
      </p>
      {!loading && options.length > 0 && (
        <ul aria-label={t.list} className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
          {options.map((siren) => {
            const checked = chosenIds.includes(siren.id);
            return (
              <li key={siren.id}>
                <label className={`flex items-center gap-3 px-3 py-2 ${disabled ? 'cursor-not-allowed' : 'cursor-pointer hover:bg-slate-50'} ${checked ? 'bg-brand-50' : ''}`}>
                  <input
                    type={single ? 'radio' : 'checkbox'}
                    name={single ? name : undefined}
                    className="h-4 w-4 accent-brand-600"
                    checked={checked}
                    disabled={disabled}
                    onChange={() => (single ? props.onChoose(siren) : props.onToggle(siren))}
                  />
                  <span>
                    <span className="block text-slate-900">{label(siren)}</span>
                    <span className="font-mono text-sm text-slate-600">{siren.code}</span>
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
      )}
      <Pagination {...props.pagination} />
    </div>
  );
}
