import { fr } from '../../i18n/fr';

const t = fr.adminActions.help;

export interface SupportContact {
  /** Opening hours, from Monday to Friday (e.g. 'de 9 h à 17 h'). */
  hours: string;
  phone: string;
  email: string;
}

/** A phone number as a tel: link: digits and a leading +, nothing else. */
const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;

/** Spec §2: customer relations' hours (Monday to Friday), phone line and mailbox. */
export function SupportHelpBox({ hours, phone, email }: SupportContact) {
  return (
    <aside aria-labelledby="support-help-title" className="rounded-xl border border-brand-100 bg-brand-50 p-5 text-slate-800">
      <h2 id="support-help-title" className="mb-1 text-lg font-semibold text-brand-800">
        {t.title}
      </h2>
      <p>
        {t.text} {t.hours(hours)}
      </p>
      <ul className="mt-3 space-y-1">
        <li>
          {t.phone}{' '}
          <a href={telHref(phone)} className="font-medium text-brand-700 underline-offset-2 hover:underline">
            {phone}
          </a>
        </li>
        <li>
          {t.email}{' '}
          <a href={`mailto:${email}`} className="font-medium text-brand-700 underline-offset-2 [overflow-wrap:anywhere] hover:underline">
            {email}
          </a>
        </li>
      </ul>
    </aside>
  );
}
