import { useId } from 'react';
import { fr } from '../../i18n/fr';

/** The rejection reason (spec §5) with its live rule: the message carries the count 'n/10', is tied to the field and announced. */
export function RejectReasonField({ value, error, onChange }: { value: string; error: string | null; onChange: (value: string) => void }) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="mt-4">
      <label htmlFor={id} className="block text-sm font-semibold text-slate-800">
        {fr.invitations.reasonLabel} <span aria-hidden="true">*</span>
      </label>
      <textarea
        id={id}
        value={value}
        required
        rows={4}
        placeholder={fr.invitations.reasonPlaceholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(e) => onChange(e.target.value)}
        className="mt-1 w-full rounded-lg border border-slate-400 p-2 focus:border-brand-600"
      />
      {/* Always there, so that a new or changed message is announced (a live region added with its text often is not). */}
      <p id={errorId} aria-live="polite" className="mt-1 min-h-5 text-sm text-red-700">
        {error}
      </p>
    </div>
  );
}
