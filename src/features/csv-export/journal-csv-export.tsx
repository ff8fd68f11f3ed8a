// The journal's export (exportAuditEntries), with the journal's filters of the moment.
import { useCallback } from 'react';
import type { ApiClient } from '../../api/client';
import { openAuditExport, type AuditExportQuery } from '../../api/exports';
import type { OpenCsvExport } from '../../machines/csv-export/csv-export.actors';
import type { CsvExportQuery } from '../../machines/csv-export/csv-export.machine';
import { CsvExportTrigger } from './csv-export-trigger';

export default function JournalCsvExport({ api, filters }: { api: ApiClient; filters: AuditExportQuery }) {
  const open = useCallback<OpenCsvExport>((query, signal) => openAuditExport(api, query as AuditExportQuery, signal), [api]);
  return <CsvExportTrigger open={open} query={filters as CsvExportQuery} />;
}
