import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import type { ApiClient } from '../../api/client';
import { rolesQueryOptions } from '../../api/roles';
import { usersQueryOptions, type UserListItem } from '../../api/users';
import { assignAdminMachine, type AssignCandidate, type AssignError } from '../../machines/assign-admin/assign-admin.machine';
import { assignAdminActors } from '../../machines/assign-admin/assign-admin.actors';
import { assignIneligibility, displayName } from '../../domain/admin-request';
import { roleDisplayLabel, roleTone } from '../../../rules/roles';
import { AssignExistingPage } from '../../ui/admin-actions/assign-existing-page';
import { CandidateList, SelectedCandidate, SimplePager, type CandidateRow } from '../../ui/admin-actions/candidate-list';
import { Spinner } from '../../ui/spinner';
import type { ToastMessage } from '../../ui/toaster';
import { fr } from '../../i18n/fr';

const t = fr.adminActions.assign;
/** Spec §9: 10 users per page. The search waits for a pause in typing, as the users list's does. */
export const ASSIGN_PAGE_SIZE = 10;
export const ASSIGN_SEARCH_DEBOUNCE_MS = 300;

export interface AssignExistingFlowProps {
  back: ReactNode;
  api: ApiClient;
  queryClient: QueryClient;
  senderEmail: string;
  /** From the URL. */
  search: string;
  page: number;
  /** A new search goes back to page 1 (spec §2). */
  onSearchChange: (next: { search: string; page: number }) => void;
  onCancel: () => void;
  /** At least one request was created: the message for the users list. */
  onSubmitted: (toast: Omit<ToastMessage, 'durationMs'>) => void;
}

function errorText(error: AssignError | null): string | null {
  if (!error) return null;
  if (error.kind === 'noOrganization') return t.noOrganization;
  if (error.kind === 'noneCreated') return t.noneCreated;
  return t.unexpected(error.message);
}

function candidateOf(user: UserListItem, internalRoleCodes: ReadonlySet<string>): AssignCandidate {
  const { id, firstName, lastName, email, jobTitle, phoneNumber, roles, organizations } = user;
  return { id, firstName, lastName, email, jobTitle, phoneNumber, roles, organizations, ineligibility: assignIneligibility(user, internalRoleCodes) };
}

/** Spec §2 'Assign-existing', §5, §8: the users (the signed-in one left out), the assign-admin machine and its outcome. */
export function AssignExistingFlow(props: AssignExistingFlowProps) {
  const { api, queryClient, search, page } = props;
  const machine = useMemo(() => assignAdminMachine.provide(assignAdminActors(api, queryClient)), [api, queryClient]);
  const [snapshot, send] = useMachine(machine, { input: { senderEmail: props.senderEmail } });
  const roles = useQuery(rolesQueryOptions(api));
  const users = useQuery(usersQueryOptions(api, { search: search.trim() || undefined, page, pageSize: ASSIGN_PAGE_SIZE, includeInactive: false, excludeSelf: true }));

  const roleNames = new Map((roles.data ?? []).map((r) => [r.code, r.name]));
  const internalCodes = new Set((roles.data ?? []).filter((r) => r.type === 'INTERNAL').map((r) => r.code));
  const toRow = (user: AssignCandidate): CandidateRow => ({
    id: user.id,
    name: displayName(user),
    email: user.email,
    roles: user.roles.map((code) => ({ code, label: roleDisplayLabel(roleNames.get(code) ?? code), tone: roleTone(code) })),
    ineligibleReason: user.ineligibility ? t.ineligible[user.ineligibility] : null,
  });
  const candidates = (users.data?.items ?? []).map((u) => candidateOf(u, internalCodes));

  const { selected, outcome, error } = snapshot.context;
  const submitted = snapshot.matches('submitted');
  const latest = useRef(props.onSubmitted);
  latest.current = props.onSubmitted;
  useEffect(() => {
    if (!submitted || !outcome || !selected) return;
    const title = t.created(outcome.created, displayName(selected)) + (outcome.failed > 0 ? t.failures(outcome.failed) : '');
    latest.current({ id: `assign-admin-${selected.id}`, variant: 'success', title });
  }, [submitted, outcome, selected]);

  const submitting = snapshot.matches('submitting') || submitted;
  const total = users.data?.total ?? 0;
  let body;
  if (selected) body = <SelectedCandidate row={toRow(selected)} disabled={submitting} onChange={() => send({ type: 'selection.clear' })} />;
  else if (users.isPending) body = <Spinner label={t.loading} />;
  else if (candidates.length === 0) {
    body = (
      <p role="status" className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">
        {search.trim() ? t.empty(search.trim()) : t.emptyAll}
      </p>
    );
  } else body = <CandidateList rows={candidates.map(toRow)} onSelect={(id) => send({ type: 'user.select', user: candidates.find((c) => c.id === id)! })} />;

  return (
    <AssignExistingPage
      back={props.back}
      search={{ value: search, delayMs: ASSIGN_SEARCH_DEBOUNCE_MS, onSearch: (text) => props.onSearchChange({ search: text, page: 1 }) }}
      showSearch={!selected}
      body={body}
      pager={!selected && total > ASSIGN_PAGE_SIZE ? <SimplePager page={page} totalPages={users.data?.totalPages ?? 1} onPage={(next) => props.onSearchChange({ search, page: next })} /> : null}
      error={errorText(error)}
      canSubmit={snapshot.can({ type: 'request.submit' })}
      submitting={submitting}
      onCancel={props.onCancel}
      onSubmit={() => send({ type: 'request.submit' })}
    />
  );
}
