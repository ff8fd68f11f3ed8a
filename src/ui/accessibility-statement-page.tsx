import type { ReactNode } from 'react';
import { frAccessibility as t, type ComplianceLevel } from '../i18n/fr-accessibility';
import { MAIN_CONTENT_ID, SkipLink } from './skip-link';

const linkClass = 'font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800';

function Section({ heading, children }: { heading: string; children: ReactNode }) {
  return (
    <section className="space-y-2">
      <h2 className="text-lg font-semibold text-slate-900">{heading}</h2>
      {children}
    </section>
  );
}

function BulletList({ items }: { items: readonly string[] }) {
  return (
    <ul className="list-disc space-y-1 pl-6">
      {items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
}

function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={linkClass}>
      {children}
      <span className="sr-only">{t.newWindow}</span>
    </a>
  );
}

export interface AccessibilityStatementProps {
  compliance: ComplianceLevel;
  contactEmail: string;
  origin: string;
  onHome: () => void;
}

/** /accessibilite: the RGAA statement, readable without signing in. */
export function AccessibilityStatementPage({ compliance, contactEmail, origin, onHome }: AccessibilityStatementProps) {
  return (
    <>
      <SkipLink />
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="min-h-screen bg-slate-50 px-4 py-8 text-slate-800">
        <article className="mx-auto max-w-3xl space-y-6 rounded-2xl bg-white p-6 shadow sm:p-10">
          <a
            href="/"
            onClick={(event) => {
              event.preventDefault();
              onHome();
            }}
            className={linkClass}
          >
            {t.back}
          </a>
          <h1 className="text-2xl font-bold text-brand-800 sm:text-3xl">{t.title}</h1>
          <p>{t.commitment}</p>
          <p>{t.scope(origin)}</p>
          <Section heading={t.compliance.heading}>
            <p>{t.compliance.text[compliance]}</p>
          </Section>
          <Section heading={t.tests.heading}>
            <p>{t.tests.intro}</p>
            <BulletList items={t.tests.items} />
          </Section>
          <Section heading={t.issues.heading}>
            <p>{t.issues.intro}</p>
            <BulletList items={t.issues.items} />
          </Section>
          <Section heading={t.established.heading}>
            <p>{t.established.date}</p>
            <p>{t.established.technologies}</p>
            <p>{t.established.tools}</p>
          </Section>
          <Section heading={t.contact.heading}>
            <p>{t.contact.text}</p>
            <p>
              {t.contact.email}{' '}
              <a href={`mailto:${contactEmail}`} className={linkClass}>
                {contactEmail}
              </a>
            </p>
          </Section>
          <Section heading={t.remedies.heading}>
            <p>{t.remedies.text}</p>
            <ul className="list-disc space-y-1 pl-6">
              <li>
                <ExternalLink href={t.remedies.formUrl}>{t.remedies.form}</ExternalLink>
              </li>
              <li>
                <ExternalLink href={t.remedies.delegateUrl}>{t.remedies.delegate}</ExternalLink>
              </li>
              <li>{t.remedies.mail}</li>
            </ul>
          </Section>
        </article>
      </main>
    </>
  );
}
