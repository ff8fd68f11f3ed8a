// The users list's selection (issue 22): its machine and toolbar load just after the list (bulk-selection.ts,
// outside the list's budget); until then the table's boxes are drawn disabled.
import { useEffect, useRef, useState } from 'react';
import { useSelector } from '@xstate/react';
import type { QueryClient } from '@tanstack/react-query';
import type { ApiClient } from '../../api/client';
import type { UserList } from '../../api/users';
import type { SessionProfile } from '../../machines/session/session.machine';
import { bulkActionsOffered } from '../../domain/user-actions';
import type { BulkFilters } from '../../domain/user-selection';
import type { BulkActor } from './bulk-selection';

type BulkModule = typeof import('./bulk-selection');

interface Options {
  api: ApiClient;
  queryClient: QueryClient;
  actor: SessionProfile;
  /** The list's filters (its query without page and sort): changing them clears the selection. */
  filters: BulkFilters;
  /** The page shown, once loaded (its people and the exact total of the filters). */
  list: UserList | undefined;
}

export function useBulkSelection({ api, queryClient, actor: person, filters, list }: Options) {
  // What the caller may ask for is read once, from their permissions (the server decides anyway).
  const [offered] = useState(() => bulkActionsOffered(person));
  const view = { filters, total: list?.total, pageIds: (list?.items ?? []).map((u) => u.id) };
  const [loaded, setLoaded] = useState<{ module: BulkModule; actor: BulkActor } | null>(null);
  useEffect(() => {
    let live = true;
    let actor: BulkActor | null = null;
    import('./bulk-selection').then(
      (module) => {
        if (!live) return;
        actor = module.startBulkSelection(api, queryClient, offered);
        setLoaded({ module, actor });
      },
      // Without it, the list works as before, without a selection.
      () => {},
    );
    return () => {
      live = false;
      actor?.stop();
    };
  }, [api, queryClient, offered]);
  const snapshot = useSelector(loaded?.actor, (s) => s);
  // Other filters, other people: the selection goes (another page keeps it).
  const filtersKey = JSON.stringify(filters);
  const shownFilters = useRef(filtersKey);
  const actor = loaded?.actor;
  useEffect(() => {
    if (shownFilters.current === filtersKey) return;
    shownFilters.current = filtersKey;
    actor?.send({ type: 'selection.clear' });
  }, [filtersKey, actor]);
  return loaded && snapshot ? { Panel: loaded.module.BulkActionPanel, ...loaded.module.bulkView(loaded.actor, snapshot, view) } : null;
}
