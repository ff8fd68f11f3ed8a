import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { Link, useRouter } from '@tanstack/react-router';
import { useMachine } from '@xstate/react';
import type { QueryClient } from '@tanstack/react-query';
import type { ApiClient } from '../../api/client';
import { editTabsMachine, type Editor } from '../../machines/edit-tabs/edit-tabs.machine';
import { editTabsActors } from '../../machines/edit-tabs/edit-tabs.actors';
import { EDIT_TABS, saveBlock, tabBlock, type EditTab } from '../../domain/user-edit';
import { useEditOrganizations } from './use-edit-organizations';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Spinner } from '../../ui/spinner';
import { useToast } from '../../ui/toaster';
import { UserNotFound } from '../../ui/users/user-notices';
import { DetailsTab } from '../../ui/users/edit/details-tab';
import { RolesTab } from '../../ui/users/edit/roles-tab';
import { SirenTab } from '../../ui/users/edit/siren-tab';
import { SiretTab } from '../../ui/users/edit/siret-tab';
import { UserEditPage } from '../../ui/users/edit/user-edit-page';
import { fr } from '../../i18n/fr';

const t = fr.userEdit;
/** Spec §9: toasts of about 3.3 s on the users screens; SIREN search 300 ms, SIRET search 200 ms. */
export const USERS_TOAST_MS = 3300;
export const SIREN_SEARCH_DEBOUNCE_MS = 300;
export const SIRET_SEARCH_DEBOUNCE_MS = 200;

export interface UserEditFlowProps {
  api: ApiClient;
  queryClient: QueryClient;
  userId: string;
  editor: Editor;
  /** ORG_LIST: the SIREN tab can search (spec §2). */
  canSearchSirens: boolean;
}

/** The edit-tabs machine (spec §4, §5, §6) wired to the edit page, its organizations and its way out. */
export function UserEditFlow({ api, queryClient, userId, editor, canSearchSirens }: UserEditFlowProps) {
  const router = useRouter();
  const toast = useToast();
  const machine = useMemo(() => editTabsMachine.provide(editTabsActors(api, queryClient)), [api, queryClient]);
  const [snapshot, send] = useMachine(machine, { input: { userId, editor } });
  const { user, form, initial, refusal, loadError, saveError } = snapshot.context;
  const editing = snapshot.matches('editing');
  const saving = snapshot.matches('saving');
  const orgs = useEditOrganizations({ api, active: user !== null, canSearchSirens, user, form, initial, send });

  // The open tab; while saving, or asked to reload, the one the machine will return to.
  const lastTab = useRef<EditTab>('details');
  if (editing) lastTab.current = EDIT_TABS.find((tab) => snapshot.matches({ editing: tab })) ?? 'details';

  const name = `${form.details.firstName} ${form.details.lastName}`.trim() || form.details.email;
  const outcome = snapshot.matches('refused') ? 'refused' : snapshot.matches('saved') ? 'saved' : snapshot.matches('cancelled') ? 'cancelled' : null;
  // A new address (more than its letter case) waits for its owner's confirmation: the toast says where the link went.
  const newEmail = form.details.email.trim();
  const emailPending = newEmail.toLowerCase() !== initial.details.email.trim().toLowerCase() ? newEmail : null;
  const latest = useRef({ refusal, name, emailPending });
  latest.current = { refusal, name, emailPending };
  useEffect(() => {
    if (!outcome) return;
    const { refusal: why, name: who, emailPending: pending } = latest.current;
    if (outcome === 'refused') toast({ id: 'user-edit-refused', variant: 'error', title: why === 'self' ? t.selfRefused : why === 'internalRole' ? t.internalRefused : t.noRightRefused, durationMs: USERS_TOAST_MS });
    if (outcome === 'saved') {
      toast({ id: `user-edit-saved-${userId}`, variant: 'success', title: t.saved(who), ...(pending ? { description: t.emailPending(pending) } : {}), durationMs: USERS_TOAST_MS });
    }
    void router.navigate({ to: '/utilisateurs', replace: outcome === 'refused' });
  }, [outcome, toast, router, userId]);

  if (outcome) return null;
  if (snapshot.matches('checking') || snapshot.matches('loading')) return <Spinner label={t.loading} />;
  const back = (
    <Link to="/utilisateurs" className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline">
      <span aria-hidden="true">←</span> {t.back}
    </Link>
  );
  if (snapshot.matches('loadFailed') || !user) {
    if (loadError?.status === 404 || loadError?.status === 403) return <UserNotFound>{back}</UserNotFound>;
    return (
      <div role="alert" className="space-y-3">
        <h1 className="text-2xl font-bold text-slate-900">{t.loadFailed}</h1>
        {loadError?.message && <p className="text-slate-700">{loadError.message}</p>}
        <div className="flex gap-4">
          <button type="button" onClick={() => send({ type: 'edit.reload' })} className="rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700">
            {t.retry}
          </button>
          {back}
        </div>
      </div>
    );
  }

  const busy = !editing;
  const panels: Record<EditTab, ReactNode> = {
    details: <DetailsTab details={form.details} disabled={busy} onChange={(field, value) => send({ type: 'details.change', field, value })} />,
    siren: (
      <SirenTab
        chosen={form.sirens}
        canSearch={canSearchSirens}
        search={orgs.sirenSearch}
        searchDebounceMs={SIREN_SEARCH_DEBOUNCE_MS}
        onSearch={orgs.setSirenSearch}
        options={orgs.sirenOptions}
        total={orgs.sirenTotal}
        loading={orgs.sirenLoading}
        disabled={busy}
        onAdd={(siren) => send({ type: 'siren.add', siren })}
        onRemove={(sirenId) => send({ type: 'siren.remove', sirenId })}
      />
    ),
    siret: (
      <SiretTab
        sirens={form.sirens}
        selected={form.sirets}
        lists={orgs.siretLists}
        searches={orgs.siretSearches}
        searchDebounceMs={SIRET_SEARCH_DEBOUNCE_MS}
        disabled={busy}
        onSearch={orgs.setSiretSearch}
        onToggle={(siret) => send({ type: 'siret.toggle', siret })}
        onSelectAll={(sirenId) => send({ type: 'sirets.selectAll', sirenId })}
        onClear={(sirenId) => send({ type: 'sirets.clear', sirenId })}
      />
    ),
    roles: <RolesTab roles={user.roles} chosen={form.roleIds} disabled={busy} onToggle={(roleId) => send({ type: 'role.toggle', roleId })} />,
  };
  return (
    <div className="space-y-4">
      {back}
      <UserEditPage
        name={name}
        email={initial.details.email}
        pendingEmail={user.pendingEmail}
        tab={lastTab.current}
        tabBlocks={{ details: null, siren: null, siret: tabBlock(form, 'siret'), roles: tabBlock(form, 'roles') }}
        onTab={(tab) => send({ type: 'tab.select', tab })}
        panels={panels}
        saveBlock={saveBlock(form, initial)}
        saving={saving}
        saveError={editing ? saveError : null}
        onCancel={() => send({ type: 'edit.cancel' })}
        onSave={() => send({ type: 'edit.save' })}
      />
      <ConfirmDialog
        open={snapshot.matches('stale')}
        title={t.staleTitle}
        description={t.staleText}
        confirmLabel={t.reload}
        cancelLabel={t.keepEditing}
        onConfirm={() => send({ type: 'edit.reload' })}
        onCancel={() => send({ type: 'stale.dismiss' })}
      />
    </div>
  );
}
