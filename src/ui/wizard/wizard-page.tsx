import { useId, type ReactNode } from 'react';
import { WIZARD_STEPS, type WizardStep } from '../../domain/user-create';
import { fr } from '../../i18n/fr';
import { ProcessingOverlay } from '../processing-overlay';

const t = fr.userCreate;

export interface WizardPageProps {
  title: string;
  back: ReactNode;
  step: WizardStep;
  children: ReactNode;
  /** Why the step cannot be left yet (spec §5), shown under the buttons. */
  blocked: string | null;
  /** A refusal or a failed submission (spec §5, §8). */
  error: string | null;
  submitLabel: string;
  submitting: boolean;
  overlayLabel: string;
  onPrevious: () => void;
  onNext: () => void;
  onSubmit: () => void;
}

/** The wizard's frame (spec §2): title, stepper 'Étape n/4', the step, 'Étape précédente' and 'Suivant' or the final button. */
export function WizardPage({ title, back, step, children, blocked, error, submitLabel, submitting, overlayLabel, onPrevious, onNext, onSubmit }: WizardPageProps) {
  const id = useId();
  const index = WIZARD_STEPS.indexOf(step);
  const last = index === WIZARD_STEPS.length - 1;
  const disabled = blocked !== null || submitting;
  return (
    <div className="space-y-6">
      {back}
      <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
      <nav aria-label={t.stepsLabel}>
        <p className="mb-2 text-sm font-semibold text-brand-700">{t.stepper(index + 1)}</p>
        <ol className="grid grid-cols-2 gap-2 sm:grid-cols-4">
          {WIZARD_STEPS.map((name, i) => (
            <li
              key={name}
              aria-current={i === index ? 'step' : undefined}
              className={`rounded-lg border-t-4 px-3 py-2 text-sm ${i === index ? 'border-brand-600 font-semibold text-slate-900' : i < index ? 'border-brand-300 text-slate-700' : 'border-slate-200 text-slate-600'}`}
            >
              <span className="block text-xs">{i + 1}.</span>
              {t.steps[name]}
            </li>
          ))}
        </ol>
      </nav>
      <section aria-labelledby={`${id}-step`} className="space-y-4 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id={`${id}-step`} className="text-lg font-semibold text-slate-900">
          {t.steps[step]}
        </h2>
        {children}
      </section>
      {error && (
        <p role="alert" className="rounded-lg border border-red-300 bg-red-50 p-3 text-red-900">
          {error}
        </p>
      )}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <button
          type="button"
          onClick={onPrevious}
          disabled={index === 0 || submitting}
          className="rounded-lg border border-slate-300 bg-white px-4 py-2 font-semibold text-slate-800 hover:bg-slate-50 disabled:opacity-40"
        >
          {t.previous}
        </button>
        <div className="flex flex-col items-end gap-1">
          <button
            type="button"
            onClick={last ? onSubmit : onNext}
            disabled={disabled}
            aria-describedby={blocked ? `${id}-blocked` : undefined}
            className="rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-50"
          >
            {last ? (submitting ? t.sending : submitLabel) : t.next}
          </button>
          {blocked && (
            <p id={`${id}-blocked`} className="text-sm text-slate-700">
              {blocked}
            </p>
          )}
        </div>
      </div>
      {submitting && <ProcessingOverlay label={overlayLabel} />}
    </div>
  );
}
