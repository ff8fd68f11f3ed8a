import { createLazyRoute } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { BACK_OFFICE_ONLY, Guarded } from '../features/session/guarded';
import { retentionRows } from '../features/retention/retention-rows';
import { retentionQueryOptions } from '../api/retention';
import { useDocumentTitle } from '../lib/use-document-title';
import { RetentionPage } from '../ui/retention/retention-page';
import { frRetention } from '../i18n/fr-retention';

function Retention() {
  const { api } = Route.useRouteContext();
  useDocumentTitle(frRetention.title);
  const query = useQuery(retentionQueryOptions(api));
  return <RetentionPage rows={retentionRows(query.data ?? [])} loading={query.isPending} error={query.isError ? frRetention.error : null} />;
}

export const Route = createLazyRoute('/shell/conservation')({
  component: () => (
    <Guarded requirement={BACK_OFFICE_ONLY}>
      <Retention />
    </Guarded>
  ),
});
