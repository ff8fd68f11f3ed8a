import { useEffect, useMemo, useRef } from 'react';
import { useMachine } from '@xstate/react';
import { csvExportMachine, type CsvExportQuery } from '../../machines/csv-export/csv-export.machine';
import { csvExportActors, type OpenCsvExport } from '../../machines/csv-export/csv-export.actors';
import { CsvExportControl, type CsvExportLabels, type CsvExportPhase } from '../../ui/csv-export/csv-export-control';

/** The csv-export machine with its button and progress, for one list; started as soon as drawn (the first press loaded it). */
export function CsvExportFlow({ open, query, selection, labels }: { open: OpenCsvExport; query: CsvExportQuery; selection?: boolean; labels?: CsvExportLabels }) {
  const machine = useMemo(() => csvExportMachine.provide(csvExportActors(open)), [open]);
  const [snapshot, send] = useMachine(machine);
  const started = useRef(false);
  const latestQuery = useRef(query);
  latestQuery.current = query;
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    send({ type: 'export.start', query: latestQuery.current });
  }, [send]);
  return (
    <CsvExportControl
      phase={String(snapshot.value) as CsvExportPhase}
      rows={snapshot.context.rows}
      failure={snapshot.context.failure}
      focusOnMount
      selection={selection}
      labels={labels}
      onStart={() => send({ type: 'export.start', query: latestQuery.current })}
      onCancel={() => send({ type: 'export.cancel' })}
    />
  );
}
