import { createLazyRoute } from '@tanstack/react-router';
import { ApiTestFlow } from '../features/api-test/api-test-flow';
import { useDocumentTitle } from '../lib/use-document-title';
import { fr } from '../i18n/fr';

function ApiTestScreen() {
  const { api } = Route.useRouteContext();
  useDocumentTitle(fr.apiTest.title);
  return <ApiTestFlow api={api} />;
}

export const Route = createLazyRoute('/shell/test-v2-api')({ component: ApiTestScreen });
