import { frRetention as t } from '../../i18n/fr-retention';
import { Spinner } from '../spinner';

export interface RetentionRowView {
  kind: string;
  what: string;
  duration: string;
  setting: string | null;
  settingText: string;
  end: string;
}

/** An environment variable's name, which may wrap after each '_' (never inside a word). */
function SettingName({ name }: { name: string }) {
  const parts = name.split('_');
  return (
    <code className="rounded bg-slate-100 px-1 py-0.5 text-xs">
      {parts.map((part, index) => (
        <span key={index}>
          {part}
          {index < parts.length - 1 && (
            <>
              _<wbr />
            </>
          )}
        </span>
      ))}
    </code>
  );
}

/** 'Durées de conservation': one table, its caption naming it; on a narrow screen it scrolls in its own focusable frame. */
export function RetentionPage({ rows, loading, error }: { rows: RetentionRowView[]; loading: boolean; error: string | null }) {
  return (
    <div className="space-y-5">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">{t.title}</h1>
        <p className="mt-1 max-w-3xl text-slate-700">{t.intro}</p>
      </div>
      {loading && <Spinner label={t.loading} />}
      {error && (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-red-800">
          {error}
        </p>
      )}
      {!loading && !error && (
        <div role="region" aria-label={t.frame} tabIndex={0} className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
          <table className="w-full min-w-[44rem] border-collapse text-left text-sm">
            <caption className="px-4 py-3 text-left font-semibold text-slate-800">
              {/* Within the screen's width, though the table scrolls wider on a phone. */}
              <span className="block max-w-[calc(100vw-4rem)]">{t.caption}</span>
            </caption>
            <thead className="bg-slate-50 text-slate-700">
              <tr>
                <th scope="col" className="px-4 py-2 font-semibold">{t.columns.what}</th>
                <th scope="col" className="px-4 py-2 font-semibold">{t.columns.duration}</th>
                <th scope="col" className="px-4 py-2 font-semibold">{t.columns.setting}</th>
                <th scope="col" className="px-4 py-2 font-semibold">{t.columns.end}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.kind} className="border-t border-slate-200 align-top">
                  <th scope="row" className="px-4 py-3 font-medium text-slate-900">{row.what}</th>
                  <td className="px-4 py-3 text-slate-800">{row.duration}</td>
                  <td className="px-4 py-3 text-slate-800">{row.setting ? <SettingName name={row.setting} /> : row.settingText}</td>
                  <td className="px-4 py-3 text-slate-700">{row.end}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
