import { useId, useState } from 'react';
import { REQUIRED_DETAILS, type WizardDetailField, type WizardDetails } from '../../domain/user-create';
import { fr } from '../../i18n/fr';

const t = fr.userCreate;

const FIELDS: readonly WizardDetailField[] = ['firstName', 'lastName', 'email', 'jobTitle', 'phoneNumber', 'mobilePhone', 'street', 'postalCode', 'city'];
const INPUT_TYPES: Partial<Record<WizardDetailField, string>> = { email: 'email', phoneNumber: 'tel', mobilePhone: 'tel' };
const MAX_LENGTH: Partial<Record<WizardDetailField, number>> = { street: 200, postalCode: 5, phoneNumber: 30, mobilePhone: 30, email: 254 };

export interface DetailsStepProps {
  details: WizardDetails;
  errors: Partial<Record<WizardDetailField, string>>;
  /** Every error shown ('Suivant' was pressed), not only those of the fields already left. */
  revealAll: boolean;
  disabled: boolean;
  onChange: (field: WizardDetailField, value: string) => void;
}

/** Step 1 (spec §2, §5): the personal details, each error tied to its field and shown once the field is left. */
export function DetailsStep({ details, errors, revealAll, disabled, onChange }: DetailsStepProps) {
  const id = useId();
  const [left, setLeft] = useState<ReadonlySet<WizardDetailField>>(new Set());
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-600">{t.required}</p>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        {FIELDS.map((field) => {
          const required = REQUIRED_DETAILS.includes(field);
          const postal = field === 'postalCode';
          const error = (revealAll || left.has(field)) && details[field] !== '' ? errors[field] : undefined;
          const inputId = `${id}-${field}`;
          return (
            <div key={field} className={field === 'street' ? 'sm:col-span-2' : undefined}>
              <label htmlFor={inputId} className="mb-1 block text-sm font-medium text-slate-700">
                {t.fields[field]}
                {required && <span aria-hidden="true"> *</span>}
              </label>
              <input
                id={inputId}
                type={INPUT_TYPES[field] ?? 'text'}
                value={details[field]}
                required={required}
                disabled={disabled}
                autoComplete="off"
                inputMode={postal ? 'numeric' : undefined}
                maxLength={MAX_LENGTH[field] ?? 100}
                placeholder={postal ? t.postalCodePlaceholder : undefined}
                title={postal ? t.postalCodeTitle : undefined}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${inputId}-error` : undefined}
                onBlur={() => setLeft((current) => new Set(current).add(field))}
                onChange={(e) => onChange(field, postal ? e.target.value.replace(/\D/g, '').slice(0, 5) : e.target.value)}
                className={`w-full rounded-lg border bg-white px-3 py-2 disabled:bg-slate-100 ${error ? 'border-red-600' : 'border-slate-300'}`}
              />
              {error && (
                <p id={`${inputId}-error`} className="mt-1 text-sm text-red-700">
                  {error}
                </p>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
