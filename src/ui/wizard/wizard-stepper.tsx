import { WIZARD_STEPS, type WizardStep } from '../../domain/user-create';
import { fr } from '../../i18n/fr';

const t = fr.userCreate;

/**
 * The stepper 'Étape n/4' (spec §2). No accessible library offers a stepper widget, and this one is not
 * interactive (the steps are left with 'Suivant' and 'Étape précédente'): an ordered list whose current
 * item carries aria-current="step", the steps done saying so in words as well as in colour. Below 640 px,
 * 'Étape n/4' alone (issue 18): the list of the four steps took 200 px of a phone's height.
 */
export function WizardStepper({ step }: { step: WizardStep }) {
  const index = WIZARD_STEPS.indexOf(step);
  return (
    <div>
      <p className="text-sm font-semibold text-brand-700 sm:mb-2">{t.stepper(index + 1)}</p>
      <ol aria-label={t.stepsLabel} className="hidden gap-2 sm:grid sm:grid-cols-4">
        {WIZARD_STEPS.map((name, i) => (
          <li
            key={name}
            aria-current={i === index ? 'step' : undefined}
            className={`rounded-lg border-t-4 px-3 py-2 text-sm ${i === index ? 'border-brand-600 font-semibold text-slate-900' : i < index ? 'border-brand-300 text-slate-700' : 'border-slate-200 text-slate-600'}`}
          >
            <span className="block text-xs">
              {i + 1}.{i < index && <span aria-hidden="true"> ✓</span>}
            </span>
            {t.steps[name]}
            {i < index && <span className="sr-only"> {t.stepDone}</span>}
          </li>
        ))}
      </ol>
    </div>
  );
}
