// The users list's export, drawn by the list after its first paint: the button alone; the first press loads the
// machine and its flow (csv-export-flow.tsx) and starts the export with the list's filters of that moment.
import { useCallback, useState, type ComponentType } from 'react';
import type { ApiClient } from '../../api/client';
import { openUsersExport, type UsersExportQuery } from '../../api/exports';
import type { UserListQuery } from '../../api/users';
import type { OpenCsvExport } from '../../machines/csv-export/csv-export.actors';
import type { CsvExportQuery } from '../../machines/csv-export/csv-export.machine';
import { CsvExportControl } from '../../ui/csv-export/csv-export-control';

type Flow = ComponentType<{ open: OpenCsvExport; query: CsvExportQuery }>;

/** The list's filters as exportUsers reads them (its last-login sort is spelled lastLoginAt). */
export function usersExportQuery({ page: _page, pageSize: _size, sort, ...filters }: UserListQuery): UsersExportQuery {
  return { ...filters, ...(sort ? { sort: sort === 'lastLogin' ? 'lastLoginAt' : sort } : {}) };
}

export default function UsersCsvExport({ api, filters }: { api: ApiClient; filters: UserListQuery }) {
  const [flow, setFlow] = useState<{ Flow: Flow } | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const open = useCallback<OpenCsvExport>((query, signal) => openUsersExport(api, query as UsersExportQuery, signal), [api]);
  const query = usersExportQuery(filters) as CsvExportQuery;
  if (flow) return <flow.Flow open={open} query={query} />;
  return (
    <CsvExportControl
      phase={loadFailed ? 'failed' : 'idle'}
      rows={0}
      failure={loadFailed ? { status: 0, message: null } : null}
      onStart={() =>
        void import('./csv-export-flow').then(
          (m) => setFlow({ Flow: m.CsvExportFlow }),
          () => setLoadFailed(true),
        )
      }
      onCancel={() => {}}
    />
  );
}
