import type { ChosenSiren } from '../../../domain/user-edit';
import { fr } from '../../../i18n/fr';
import { DebouncedSearchInput } from '../../debounced-search-input';

const t = fr.userEdit.siren;

export interface SirenOption {
  id: string;
  code: string;
  name: string;
}

export interface SirenTabProps {
  chosen: ChosenSiren[];
  /** ORG_LIST: search among all the SIRENs the person reaches; otherwise only those offered. */
  canSearch: boolean;
  search: string;
  searchDebounceMs: number;
  onSearch: (text: string) => void;
  options: SirenOption[];
  total: number;
  loading: boolean;
  disabled: boolean;
  onAdd: (siren: SirenOption) => void;
  onRemove: (sirenId: string) => void;
}

export const sirenLabel = (s: { code: string; name: string }) => s.name || fr.userProfile.sirenFallback(s.code);

/** Spec §2: the SIRENs of the user; the search works only with ORG_LIST. */
export function SirenTab({ chosen, canSearch, search, searchDebounceMs, onSearch, options, total, loading, disabled, onAdd, onRemove }: SirenTabProps) {
  const isChosen = (id: string) => chosen.some((s) => s.id === id);
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <section aria-labelledby="chosen-sirens">
        <h3 id="chosen-sirens" className="mb-2 font-semibold text-slate-900">
          {t.chosen} ({chosen.length})
        </h3>
        {chosen.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 p-4 text-slate-600">{t.none}</p>
        ) : (
          <ul className="space-y-2">
            {chosen.map((siren) => (
              <li key={siren.id} className="flex items-center justify-between gap-2 rounded-lg border border-slate-200 bg-slate-50 px-3 py-2">
                <span>
                  <span className="block font-medium text-slate-900">{sirenLabel(siren)}</span>
                  <span className="font-mono text-sm text-slate-600">{siren.code}</span>
                </span>
                <button
                  type="button"
                  disabled={disabled}
                  onClick={() => onRemove(siren.id)}
                  aria-label={t.remove(`${sirenLabel(siren)} (${siren.code})`)}
                  className="rounded-md px-2 py-1 text-slate-700 hover:bg-slate-200 disabled:opacity-40"
                >
                  <span aria-hidden="true">×</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="siren-results" className="space-y-3">
        <h3 id="siren-results" className="font-semibold text-slate-900">
          {t.results}
        </h3>
        {canSearch ? (
          <DebouncedSearchInput value={search} label={t.searchLabel} placeholder={t.search} delayMs={searchDebounceMs} onSearch={onSearch} />
        ) : (
          <p className="rounded-lg bg-slate-50 p-3 text-sm text-slate-700">{t.searchUnavailable}</p>
        )}
        {loading ? (
          <p role="status" className="text-slate-600">
            {t.searching}
          </p>
        ) : options.length === 0 ? (
          <p role="status" className="text-slate-600">
            {t.noResult}
          </p>
        ) : (
          <ul className="max-h-96 divide-y divide-slate-100 overflow-y-auto rounded-lg border border-slate-200 bg-white">
            {options.map((option) => (
              <li key={option.id}>
                <label className="flex cursor-pointer items-center gap-3 px-3 py-2 hover:bg-slate-50">
                  <input
                    type="checkbox"
                    className="h-4 w-4 accent-brand-600"
                    checked={isChosen(option.id)}
                    disabled={disabled}
                    onChange={() => (isChosen(option.id) ? onRemove(option.id) : onAdd(option))}
                  />
                  <span>
                    <span className="block text-slate-900">{sirenLabel(option)}</span>
                    <span className="font-mono text-sm text-slate-600">{option.code}</span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        )}
        {total > options.length && <p className="text-sm text-slate-600">{t.more(options.length, total)}</p>}
      </section>
    </div>
  );
}
