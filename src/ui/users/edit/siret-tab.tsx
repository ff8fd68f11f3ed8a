import type { ChosenSiren, ChosenSiret } from '../../../domain/user-edit';
import { fr } from '../../../i18n/fr';
import { DebouncedSearchInput } from '../../debounced-search-input';
import { sirenLabel } from './siren-tab';

const t = fr.userEdit.siret;

export interface SiretList {
  /** `closed`: closed in Sirene, shown as 'Fermé' and not offered (one already chosen may be taken off). */
  items: { id: string; code: string; name: string; closed?: boolean }[];
  total: number;
  loading: boolean;
}

export interface SiretTabProps {
  sirens: ChosenSiren[];
  selected: ChosenSiret[];
  lists: Record<string, SiretList | undefined>;
  searches: Record<string, string | undefined>;
  searchDebounceMs: number;
  disabled: boolean;
  /** Why a locked SIREN's SIRETs cannot be changed (default: the edit page's reason). */
  lockedText?: string;
  onSearch: (sirenId: string, text: string) => void;
  onToggle: (siret: ChosenSiret) => void;
  onSelectAll: (sirenId: string) => void;
  onClear: (sirenId: string) => void;
}

type GroupProps = Omit<SiretTabProps, 'sirens' | 'lists' | 'searches'> & { siren: ChosenSiren; list: SiretList | undefined; search: string };

function SiretGroup({ siren, list, search, selected, searchDebounceMs, disabled, lockedText, onSearch, onToggle, onSelectAll, onClear }: GroupProps) {
  const mine = selected.filter((s) => s.sirenId === siren.id);
  const allChosen = siren.selectAll || (!search && !!list && list.total > 0 && mine.length >= list.total);
  const label = sirenLabel(siren);
  const locked = siren.locked || disabled;
  return (
    <section aria-label={`${label} (${siren.code})`} className="rounded-xl border border-slate-200 bg-white">
      <header className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 px-4 py-3">
        <div>
          <h3 className="font-semibold text-slate-900">{label}</h3>
          <p className="font-mono text-sm text-slate-600">SIREN {siren.code}</p>
        </div>
        <div className="flex items-center gap-4">
          <span className="text-sm text-slate-700">{t.count(mine.length, list && !search ? list.total : mine.length)}</span>
          <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
            <input
              type="checkbox"
              className="h-4 w-4 accent-brand-600"
              checked={allChosen}
              disabled={locked}
              aria-label={t.selectAllOf(label)}
              onChange={() => (allChosen ? onClear(siren.id) : onSelectAll(siren.id))}
            />
            {t.selectAll}
          </label>
        </div>
      </header>
      <div className="space-y-3 p-4">
        {siren.locked && <p className="rounded-lg bg-purple-50 p-3 text-sm text-purple-900">{lockedText ?? t.locked}</p>}
        {mine.length === 0 && !siren.selectAll && (
          <p role="status" className="text-sm font-medium text-amber-800">
            {t.missing}
          </p>
        )}
        <DebouncedSearchInput value={search} label={t.searchLabel(label)} placeholder={t.search} delayMs={searchDebounceMs} onSearch={(text) => onSearch(siren.id, text)} />
        {/* Always there, so that 'loading' and 'no result' after a search are announced. */}
        <p role="status" className="text-sm text-slate-600">
          {!list || list.loading ? t.loading : list.items.length === 0 ? t.noResult : ''}
        </p>
        {list && !list.loading && list.items.length > 0 && (
          <ul className="max-h-72 divide-y divide-slate-100 overflow-y-auto rounded-lg border border-slate-200">
            {list.items.map((item) => {
              const checked = mine.some((s) => s.id === item.id);
              const off = locked || (item.closed === true && !checked);
              const hintId = `siret-closed-${item.id}`;
              return (
                <li key={item.id}>
                  <label className={`flex items-center gap-3 px-3 py-2 ${off ? 'cursor-not-allowed text-slate-500' : 'cursor-pointer hover:bg-slate-50'}`}>
                    <input
                      type="checkbox"
                      className="h-4 w-4 accent-brand-600"
                      checked={checked}
                      disabled={off}
                      aria-describedby={item.closed ? hintId : undefined}
                      onChange={() => onToggle({ id: item.id, code: item.code, name: item.name, sirenId: siren.id })}
                    />
                    <span>
                      <span className="block text-slate-900">
                        {item.name || fr.userProfile.siretFallback}
                        {item.closed && <span className="ml-2 rounded-full bg-slate-200 px-2 py-0.5 text-xs font-semibold text-slate-800">{t.closed}</span>}
                      </span>
                      <span className="font-mono text-sm text-slate-600">{item.code}</span>
                      {item.closed && (
                        <span id={hintId} className="block text-xs text-slate-700">
                          {t.closedHint}
                        </span>
                      )}
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </section>
  );
}

/** Spec §2, §4, §5: the SIRETs of each chosen SIREN, searchable, with 'select all'; locked where the user holds an internal role. */
export function SiretTab({ sirens, lists, searches, ...rest }: SiretTabProps) {
  return (
    <div className="space-y-4">
      {sirens.map((siren) => (
        <SiretGroup key={siren.id} siren={siren} list={lists[siren.id]} search={searches[siren.id] ?? ''} {...rest} />
      ))}
    </div>
  );
}
