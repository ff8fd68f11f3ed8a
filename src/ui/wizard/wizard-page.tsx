import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { WIZARD_STEPS, type WizardStep } from '../../domain/user-create';
import { fr } from '../../i18n/fr';
import { LazyProcessingOverlay, usePreloadedProcessingOverlay } from '../lazy-processing-overlay';
import { WizardStepper } from './wizard-stepper';

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

/**
 * The wizard's frame (spec §2): title, stepper 'Étape n/4', the step, 'Étape précédente' and 'Suivant' or the final button.
 * Focus: a new step puts it on the step's heading, so that screen-reader users hear where they are; 'Suivant'
 * on a step with an invalid field puts it on the first such field, which says what is wrong.
 */
export function WizardPage({ title, back, step, children, blocked, error, submitLabel, submitting, overlayLabel, onPrevious, onNext, onSubmit }: WizardPageProps) {
  const id = useId();
  usePreloadedProcessingOverlay();
  const index = WIZARD_STEPS.indexOf(step);
  const last = index === WIZARD_STEPS.length - 1;
  const heading = useRef<HTMLHeadingElement>(null);
  const section = useRef<HTMLElement>(null);
  const shownStep = useRef(step);
  // Each press of 'Suivant', with the step it was pressed on.
  const [attempt, setAttempt] = useState<{ step: WizardStep; count: number } | null>(null);

  useEffect(() => {
    if (shownStep.current !== step) {
      shownStep.current = step;
      heading.current?.focus();
    } else if (attempt?.step === step) section.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [step, attempt]);

  // Blocked, the button stays focusable (aria-disabled) and says why through its description, rather than
  // vanishing from the tab order as a disabled button would.
  const unavailable = blocked !== null || submitting;
  const forward = () => {
    if (unavailable) return;
    if (last) onSubmit();
    else {
      setAttempt((current) => ({ step, count: (current?.count ?? 0) + 1 }));
      onNext();
    }
  };
  return (
    <div className="space-y-6">
      {back}
      <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
      <WizardStepper step={step} />
      <section ref={section} aria-labelledby={`${id}-step`} className="space-y-4 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h2 ref={heading} id={`${id}-step`} tabIndex={-1} className="text-lg font-semibold text-slate-900 outline-none focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-2">
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
            onClick={forward}
            aria-disabled={unavailable || undefined}
            aria-describedby={blocked ? `${id}-blocked` : undefined}
            className="rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 aria-disabled:cursor-not-allowed aria-disabled:opacity-50 aria-disabled:hover:bg-brand-600"
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
      {submitting && <LazyProcessingOverlay label={overlayLabel} />}
    </div>
  );
}
