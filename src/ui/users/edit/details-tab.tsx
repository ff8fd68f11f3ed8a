import { useId } from 'react';
import { DETAIL_FIELDS, type DetailField, type EditDetails } from '../../../domain/user-edit';
import { fr } from '../../../i18n/fr';

const t = fr.userEdit;

const INPUT_TYPES: Partial<Record<DetailField, string>> = { email: 'email', phoneNumber: 'tel', mobilePhone: 'tel' };
const AUTOCOMPLETE: Partial<Record<DetailField, string>> = { firstName: 'off', lastName: 'off', email: 'off' };

/** The personal details, free text: the edit page does not validate them (spec §5); the postal code takes up to 5 digits. */
export function DetailsTab({ details, disabled, onChange }: { details: EditDetails; disabled: boolean; onChange: (field: DetailField, value: string) => void }) {
  const id = useId();
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
      {DETAIL_FIELDS.map((field) => {
        const postal = field === 'postalCode';
        return (
          <div key={field} className={field === 'street' ? 'sm:col-span-2' : undefined}>
            <label htmlFor={`${id}-${field}`} className="mb-1 block text-sm font-medium text-slate-700">
              {t.fields[field]}
            </label>
            <input
              id={`${id}-${field}`}
              type={INPUT_TYPES[field] ?? 'text'}
              value={details[field]}
              disabled={disabled}
              autoComplete={AUTOCOMPLETE[field]}
              inputMode={postal ? 'numeric' : undefined}
              maxLength={postal ? 5 : field === 'street' ? 200 : 100}
              placeholder={postal ? t.postalCodePlaceholder : undefined}
              title={postal ? t.postalCodeTitle : undefined}
              onChange={(e) => onChange(field, postal ? e.target.value.replace(/\D/g, '').slice(0, 5) : e.target.value)}
              className="w-full rounded-lg border border-slate-300 bg-white px-3 py-2 disabled:bg-slate-100"
            />
          </div>
        );
      })}
    </div>
  );
}
