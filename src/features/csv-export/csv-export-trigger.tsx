// An export's button, drawn by its list after the list's first paint: the button alone; the first press loads the
// machine and its flow (csv-export-flow.tsx) and starts the export with the list's filters of that moment.
import { useState, type ComponentType } from 'react';
import type { OpenCsvExport } from '../../machines/csv-export/csv-export.actors';
import type { CsvExportQuery } from '../../machines/csv-export/csv-export.machine';
import { CsvExportControl, type CsvExportLabels } from '../../ui/csv-export/csv-export-control';

type Flow = ComponentType<{ open: OpenCsvExport; query: CsvExportQuery; selection?: boolean; labels?: CsvExportLabels }>;

export function CsvExportTrigger({ open, query, selection, labels }: { open: OpenCsvExport; query: CsvExportQuery; selection?: boolean; labels?: CsvExportLabels }) {
  const [flow, setFlow] = useState<{ Flow: Flow } | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  if (flow) return <flow.Flow open={open} query={query} selection={selection} labels={labels} />;
  return (
    <CsvExportControl
      phase={loadFailed ? 'failed' : 'idle'}
      rows={0}
      failure={loadFailed ? { status: 0, message: null } : null}
      selection={selection}
      labels={labels}
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
