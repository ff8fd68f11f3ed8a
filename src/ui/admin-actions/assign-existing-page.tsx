import type { ReactNode } from 'react';
import { fr } from '../../i18n/fr';
import { DebouncedSearchInput } from '../debounced-search-input';

const t = fr.adminActions.assign;

export interface AssignExistingPageProps {
  back: ReactNode;
  search: { value: string; delayMs: number; onSearch: (text: string) => void };
  /** Hidden while a user is selected. */
  showSearch: boolean;
  /** The list, the selected user, the loading or empty text. */
  body: ReactNode;
  pager: ReactNode;
  error: string | null;
  canSubmit: boolean;
  submitting: boolean;
  onCancel: () => void;
  onSubmit: () => void;
}

/** Spec §2 /admin-actions/assign-existing: search, users, pager, the information box and the two buttons. */
export function AssignExistingPage(props: AssignExistingPageProps) {
  return (
    <div className="max-w-4xl space-y-5">
      {props.back}
      <h1 className="text-2xl font-bold text-slate-900">{t.heading}</h1>
      <p className="text-slate-700">{t.intro}</p>
      {props.showSearch && <DebouncedSearchInput value={props.search.value} label={t.searchLabel} placeholder={t.search} delayMs={props.search.delayMs} onSearch={props.search.onSearch} />}
      {props.error && (
        <p role="alert" className="rounded-lg border border-red-300 bg-red-50 p-3 text-red-900">
          {props.error}
        </p>
      )}
      {props.body}
      {props.pager}
      <p role="note" className="rounded-lg border border-sky-200 bg-sky-50 p-4 text-sky-950">
        <span aria-hidden="true" className="mr-2">
          ℹ
        </span>
        {t.info}
      </p>
      <div className="flex flex-wrap justify-end gap-3">
        <button type="button" onClick={props.onCancel} className="rounded-lg border border-slate-300 bg-white px-4 py-2 font-semibold text-slate-800 hover:bg-slate-50">
          {t.cancel}
        </button>
        <button
          type="button"
          onClick={props.onSubmit}
          disabled={!props.canSubmit || props.submitting}
          className="rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-50"
        >
          {props.submitting ? t.submitting : t.submit}
        </button>
      </div>
    </div>
  );
}
