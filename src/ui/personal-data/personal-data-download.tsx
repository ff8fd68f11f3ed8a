import { useId } from 'react';
import type { PersonalDataFailure, PersonalDataFormat } from '../../domain/personal-data';
import { frPersonalData as t } from '../../i18n/fr-personal-data';

export type PersonalDataPhase = 'idle' | 'downloading' | 'done' | 'failed';

export interface PersonalDataDownloadProps {
  phase: PersonalDataPhase;
  fileName: string | null;
  failure: PersonalDataFailure | null;
  /** One's own data ('Mon profil') or another person's (a profile). */
  self: boolean;
  /** 'dark': inside the navigation's 'Mon profil' panel; 'light': a section of a profile page. */
  tone: 'light' | 'dark';
  onDownload: (format: PersonalDataFormat) => void;
  onRetry: () => void;
}

function failureText(failure: PersonalDataFailure | null): string {
  if (failure?.message) return t.failedBecause(failure.message);
  return failure?.status === 0 ? t.network : t.failed;
}

/** 'Données personnelles': the two downloads, where one stands, and on failure why with 'Réessayer'. */
export function PersonalDataDownload({ phase, fileName, failure, self, tone, onDownload, onRetry }: PersonalDataDownloadProps) {
  const headingId = useId();
  const busy = phase === 'downloading';
  const dark = tone === 'dark';
  const button = dark
    ? 'rounded-md border border-white/70 px-2 py-1 text-left font-semibold text-white hover:bg-brand-700 focus-visible:outline-white aria-disabled:cursor-progress aria-disabled:opacity-70'
    : 'rounded-lg border border-slate-300 bg-white px-4 py-2 font-semibold text-slate-800 hover:bg-slate-50 aria-disabled:cursor-progress aria-disabled:opacity-70';
  const Heading = dark ? 'h3' : 'h2';
  return (
    <section aria-labelledby={headingId} className={dark ? 'mt-3 space-y-2 border-t border-brand-700 pt-3' : 'space-y-3 rounded-xl border border-slate-200 bg-white p-6 shadow-sm'}>
      <Heading id={headingId} className={dark ? 'font-semibold text-white' : 'text-lg font-semibold text-slate-900'}>
        {t.heading}
      </Heading>
      <p className={dark ? 'text-brand-100' : 'text-sm text-slate-700'}>{self ? t.introSelf : t.introOther}</p>
      <div className={dark ? 'flex flex-col gap-2' : 'flex flex-wrap gap-2'}>
        {(['json', 'html'] as const).map((format) => (
          // Not disabled while busy: the focus stays on it (a second press is ignored).
          <button key={format} type="button" aria-disabled={busy} onClick={() => !busy && onDownload(format)} className={button}>
            {format === 'json' ? t.json : t.html}
          </button>
        ))}
      </div>
      <p role="status" className={dark ? 'break-all text-brand-100' : 'break-all text-sm text-slate-700'}>
        {phase === 'downloading' ? t.downloading : phase === 'done' && fileName ? t.done(fileName) : ''}
      </p>
      {phase === 'failed' && (
        <div role="alert" className={dark ? 'space-y-2 rounded-md bg-white p-2 text-red-800' : 'flex flex-wrap items-center gap-3 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800'}>
          <p>{failureText(failure)}</p>
          <button type="button" onClick={onRetry} className="rounded-md border border-red-700 bg-white px-3 py-1 font-semibold text-red-800 hover:bg-red-50">
            {t.retry}
          </button>
        </div>
      )}
    </section>
  );
}
