// The figures of a lifecycle machine's chart as a CSV file (issue 24), for the period shown.
import { useCallback } from 'react';
import type { ApiClient } from '../../api/client';
import { openWorkflowFiguresExport, type WorkflowFiguresExportQuery } from '../../api/exports';
import type { OpenCsvExport } from '../../machines/csv-export/csv-export.actors';
import type { CsvExportQuery } from '../../machines/csv-export/csv-export.machine';
import type { CsvExportLabels } from '../../ui/csv-export/csv-export-control';
import { CsvExportTrigger } from './csv-export-trigger';

export default function WorkflowFiguresCsvExport({ api, query, labels }: { api: ApiClient; query: WorkflowFiguresExportQuery; labels: CsvExportLabels }) {
  const open = useCallback<OpenCsvExport>((q, signal) => openWorkflowFiguresExport(api, q as WorkflowFiguresExportQuery, signal), [api]);
  return <CsvExportTrigger open={open} query={query as unknown as CsvExportQuery} labels={labels} />;
}
