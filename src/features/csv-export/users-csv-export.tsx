// The users list's export (exportUsers), with the list's filters; or the people selected on it (exportSelectedUsers).
import { useCallback, useRef } from 'react';
import type { ApiClient } from '../../api/client';
import { openSelectedUsersExport, openUsersExport, type UsersExportQuery } from '../../api/exports';
import type { UserListQuery } from '../../api/users';
import type { OpenCsvExport } from '../../machines/csv-export/csv-export.actors';
import type { CsvExportQuery } from '../../machines/csv-export/csv-export.machine';
import { CsvExportTrigger } from './csv-export-trigger';

/** The list's filters as exportUsers reads them (its last-login sort is spelled lastLoginAt). */
export function usersExportQuery({ page: _page, pageSize: _size, sort, ...filters }: UserListQuery): UsersExportQuery {
  return { ...filters, ...(sort ? { sort: sort === 'lastLogin' ? 'lastLoginAt' : sort } : {}) };
}

export default function UsersCsvExport({ api, filters, selection }: { api: ApiClient; filters: UserListQuery; selection?: { userIds: string[] | null } }) {
  // The people selected when the export starts (the selection may change while the button is shown).
  const chosen = useRef<string[] | null>(null);
  chosen.current = selection?.userIds ?? null;
  const open = useCallback<OpenCsvExport>(
    (query, signal) => (chosen.current ? openSelectedUsersExport(api, chosen.current, signal) : openUsersExport(api, query as UsersExportQuery, signal)),
    [api],
  );
  return <CsvExportTrigger open={open} query={usersExportQuery(filters) as CsvExportQuery} selection={selection !== undefined} />;
}
