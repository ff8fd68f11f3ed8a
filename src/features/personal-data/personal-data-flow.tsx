// A person's data on request (issue 23): the personal-data-download machine with its section, on a profile
// (userId) or in 'Mon profil' (null: oneself). Loaded on demand: the profile or the panel draws it lazily.
import { useCallback, useMemo } from 'react';
import { useMachine } from '@xstate/react';
import type { ApiClient } from '../../api/client';
import { openPersonalData } from '../../api/personal-data';
import { personalDataDownloadMachine } from '../../machines/personal-data-download/personal-data-download.machine';
import { personalDataDownloadActors, type OpenPersonalData } from '../../machines/personal-data-download/personal-data-download.actors';
import { PersonalDataDownload, type PersonalDataPhase } from '../../ui/personal-data/personal-data-download';

export default function PersonalDataFlow({ api, userId, self, tone }: { api: ApiClient; userId: string | null; self: boolean; tone: 'light' | 'dark' }) {
  const open = useCallback<OpenPersonalData>((format, signal) => openPersonalData(api, userId, format, signal), [api, userId]);
  const machine = useMemo(() => personalDataDownloadMachine.provide(personalDataDownloadActors(open)), [open]);
  const [snapshot, send] = useMachine(machine);
  return (
    <PersonalDataDownload
      phase={snapshot.value as PersonalDataPhase}
      fileName={snapshot.context.fileName}
      failure={snapshot.context.failure}
      self={self}
      tone={tone}
      onDownload={(format) => send({ type: 'download.start', format })}
      onRetry={() => send({ type: 'download.retry' })}
    />
  );
}
