import type { ReactNode } from 'react';
import { fr } from '../../i18n/fr';
import { ApiChecks, type ApiCheckView } from './api-checks';

const t = fr.apiTest;

export interface ApiTestUser {
  email: string;
  name: string;
  userType: 'BACKOFFICE' | 'ORGANIZATION';
  backOffice: boolean;
  active: boolean;
  permissions: string[];
  /** For organization users: each organization with the role held there and that role's permissions. */
  organizations: { key: string; name: string; code: string; type: string; role: { code: string; name: string; permissions: string[] } }[] | null;
}

export interface ApiTestPageProps {
  user: ApiTestUser;
  checks: ApiCheckView[] | null;
  running: boolean;
  onRun: () => void;
  refreshing: boolean;
  canRefresh: boolean;
  onRefresh: () => void;
}

const button = 'rounded-lg px-4 py-2 font-semibold disabled:cursor-not-allowed disabled:opacity-60';

function Section({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  const id = `api-test-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <section aria-labelledby={id} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <h2 id={id} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** Spec §2 /test-v2-api: the signed-in user as the portal knows them, and the three API checks. */
export function ApiTestPage({ user, checks, running, onRun, refreshing, canRefresh, onRefresh }: ApiTestPageProps) {
  const yesNo = (value: boolean) => (value ? t.yes : t.no);
  const fields: [string, string][] = [
    [t.fields.email, user.email],
    [t.fields.name, user.name],
    [t.fields.userType, user.userType],
    [t.fields.backOffice, yesNo(user.backOffice)],
    [t.fields.active, yesNo(user.active)],
  ];
  return (
    <div className="max-w-5xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">{t.title}</h1>
        <p className="mt-1 text-slate-700">{t.intro}</p>
      </div>
      <Section
        title={t.currentUser}
        actions={
          <button type="button" onClick={onRefresh} disabled={!canRefresh || refreshing} className={`${button} border border-brand-600 text-brand-700 hover:bg-brand-50`}>
            {refreshing ? t.refreshing : t.refresh}
          </button>
        }
      >
        <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
          {fields.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="font-medium text-slate-600">{label}</dt>
              <dd className="text-slate-900">{value}</dd>
            </div>
          ))}
        </dl>
      </Section>
      <Section title={t.permissions}>
        {user.permissions.length === 0 ? (
          <p className="text-slate-600">{t.noPermission}</p>
        ) : (
          <ul aria-label={t.permissions} className="flex flex-wrap gap-2">
            {user.permissions.map((code) => (
              <li key={code} className="rounded bg-slate-100 px-2 py-0.5 font-mono text-sm text-slate-800">
                {code}
              </li>
            ))}
          </ul>
        )}
      </Section>
      {user.organizations && (
        <Section title={t.organizations}>
          {user.organizations.length === 0 ? (
            <p className="text-slate-600">{t.noOrganization}</p>
          ) : (
            <table className="w-full text-left text-sm">
              <thead className="text-slate-600">
                <tr>
                  <th className="py-2 pr-4 font-medium">{t.columns.organization}</th>
                  <th className="py-2 pr-4 font-medium">{t.columns.type}</th>
                  <th className="py-2 pr-4 font-medium">{t.columns.role}</th>
                  <th className="py-2 font-medium">{t.columns.rolePermissions}</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {user.organizations.map((o) => (
                  <tr key={o.key}>
                    <td className="py-2 pr-4">
                      {o.name} <span className="font-mono text-slate-600">{o.code}</span>
                    </td>
                    <td className="py-2 pr-4">{o.type}</td>
                    <td className="py-2 pr-4">
                      {o.role.name} <span className="font-mono text-slate-600">{o.role.code}</span>
                    </td>
                    <td className="py-2 font-mono">{o.role.permissions.join(', ') || '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Section>
      )}
      <Section
        title={t.checks}
        actions={
          <button type="button" onClick={onRun} disabled={running} className={`${button} bg-brand-600 text-white hover:bg-brand-700`}>
            {running ? t.running : t.run}
          </button>
        }
      >
        <ApiChecks checks={checks} />
      </Section>
    </div>
  );
}
