// The selection's toolbar and the dialog of its action (confirmation, progress, report).
import type { ReactNode } from 'react';
import { BulkToolbar } from '../../ui/users/bulk-toolbar';
import { BulkActionDialog, type BulkDialogPhase } from '../../ui/users/bulk-action-dialog';
import type { BulkSelection } from './bulk-selection';

const DIALOG_PHASES: readonly string[] = ['confirming', 'starting', 'running', 'report', 'failed', 'interrupted'] satisfies BulkDialogPhase[];

export function BulkActionPanel({ bulk, exportControl }: { bulk: BulkSelection; exportControl?: ReactNode }) {
  const { snapshot, send, count, selectAll } = bulk;
  const { selection, action, job, failure } = snapshot.context;
  // 'running' has children (waiting, polling): its top level names the phase.
  const phase = (typeof snapshot.value === 'string' ? snapshot.value : Object.keys(snapshot.value)[0]) as string;
  return (
    <>
      <BulkToolbar
        count={count}
        allSelected={selection.kind === 'all'}
        selectAll={selectAll}
        actions={snapshot.context.allowed}
        onChoose={(chosen) => send({ type: 'bulk.choose', action: chosen })}
        onClear={() => send({ type: 'selection.clear' })}
        exportControl={exportControl}
      />
      {action && DIALOG_PHASES.includes(phase) && (
        <BulkActionDialog
          phase={phase as BulkDialogPhase}
          action={action}
          count={count}
          job={job}
          failure={failure}
          onConfirm={() => send({ type: 'bulk.confirm' })}
          onCancel={() => send({ type: 'bulk.cancel' })}
          onDismiss={() => send({ type: 'bulk.dismiss' })}
          onRetry={() => send({ type: 'bulk.retry' })}
        />
      )}
    </>
  );
}
