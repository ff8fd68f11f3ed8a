import { createLazyRoute, useRouter } from '@tanstack/react-router';
import { useDocumentTitle } from '../lib/use-document-title';
import { AccessibilityStatementPage } from '../ui/accessibility-statement-page';
import { frAccessibility } from '../i18n/fr-accessibility';

function AccessibilityStatement() {
  const router = useRouter();
  const { config } = Route.useRouteContext();
  useDocumentTitle(frAccessibility.title);
  return (
    <AccessibilityStatementPage
      compliance={config.accessibility.compliance}
      contactEmail={config.accessibility.contactEmail}
      origin={config.apiBase}
      onHome={() => void router.navigate({ to: '/' })}
    />
  );
}

export const Route = createLazyRoute('/accessibilite')({ component: AccessibilityStatement });
