import { frShell as fr } from '../i18n/fr-shell';

export function Spinner({ label = fr.app.loading }: { label?: string }) {
  return (
    <div role="status" aria-live="polite" className="flex min-h-[40vh] flex-col items-center justify-center gap-3 text-slate-600">
      <span aria-hidden="true" className="h-10 w-10 animate-spin rounded-full border-4 border-brand-100 border-t-brand-600" />
      <span>{label}</span>
    </div>
  );
}
