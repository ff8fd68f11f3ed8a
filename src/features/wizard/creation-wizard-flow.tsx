import { useEffect, useMemo } from 'react';
import { Link, useRouter } from '@tanstack/react-router';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import type { ApiClient } from '../../api/client';
import { rolesQueryOptions } from '../../api/roles';
import { creationWizardMachine, type WizardInput } from '../../machines/creation-wizard/creation-wizard.machine';
import { creationWizardActors } from '../../machines/creation-wizard/creation-wizard.actors';
import { detailsErrors, stepBlock, WIZARD_STEPS } from '../../domain/user-create';
import { compactPageItems } from '../../domain/pagination';
import { useWizardOrganizations } from './use-wizard-organizations';
import { useDocumentTitle } from '../../lib/use-document-title';
import { DetailsStep } from '../../ui/wizard/details-step';
import { SirensStep } from '../../ui/wizard/sirens-step';
import { WizardPage } from '../../ui/wizard/wizard-page';
import { SiretTab } from '../../ui/users/edit/siret-tab';
import { RolesTab } from '../../ui/users/edit/roles-tab';
import { fr } from '../../i18n/fr';

const t = fr.userCreate;
/** Spec §9: the SIREN search waits 300 ms, the SIRET search 200 ms (as on the edit page). */
const SIREN_SEARCH_DEBOUNCE_MS = 300;
const SIRET_SEARCH_DEBOUNCE_MS = 200;

export interface CreationWizardFlowProps {
  api: ApiClient;
  queryClient: QueryClient;
  input: WizardInput;
}

/** The creation-wizard machine (spec §2, §4, §5) wired to its organizations, its roles and its way out. */
export function CreationWizardFlow({ api, queryClient, input }: CreationWizardFlowProps) {
  const router = useRouter();
  const machine = useMemo(() => creationWizardMachine.provide(creationWizardActors(api, queryClient)), [api, queryClient]);
  const [snapshot, send] = useMachine(machine, { input });
  const { mode, draft, offeredRoles, revealErrors, refusal, submitError } = snapshot.context;
  const single = mode === 'admin';
  const orgs = useWizardOrganizations({ api, offeredSirens: input.offeredSirens, single, draft, send });
  const roles = useQuery(rolesQueryOptions(api));
  useDocumentTitle(t.title[mode]);

  useEffect(() => {
    if (roles.data) send({ type: 'roles.offered', roles: roles.data.map(({ id, code, name, type }) => ({ id, code, name, type })) });
  }, [roles.data, send]);

  const submitted = snapshot.matches('submitted');
  useEffect(() => {
    if (submitted) void router.navigate({ to: '/utilisateurs', state: { toast: { title: t.succeeded[mode], variant: 'success' } } });
  }, [submitted, router, mode]);
  if (submitted) return null;

  const submitting = snapshot.matches('submitting');
  const step = WIZARD_STEPS.find((name) => snapshot.matches({ editing: name })) ?? 'roles';
  const block = stepBlock(step, draft);
  const chosenRoleIds = draft.roles.map((r) => r.id);

  return (
    <WizardPage
      title={t.title[mode]}
      back={
        <Link to="/utilisateurs" className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline">
          <span aria-hidden="true">←</span> {t.back}
        </Link>
      }
      step={step}
      blocked={block === null ? null : block === 'detailsIncomplete' ? t.required : t.blocks[block]}
      error={refusal ? t.refusals[refusal] : submitError}
      submitLabel={t.submit[mode]}
      submitting={submitting}
      overlayLabel={t.overlay[mode]}
      onPrevious={() => send({ type: 'wizard.back' })}
      onNext={() => send({ type: 'wizard.next' })}
      onSubmit={() => send({ type: 'wizard.submit' })}
    >
      {step === 'details' && (
        <DetailsStep
          details={draft.details}
          errors={detailsErrors(draft.details)}
          revealAll={revealErrors}
          disabled={submitting}
          onChange={(field, value) => send({ type: 'details.change', field, value })}
        />
      )}
      {step === 'sirens' && (
        <SirensStep
          single={single}
          chosenIds={draft.sirens.map((s) => s.id)}
          searchDebounceMs={SIREN_SEARCH_DEBOUNCE_MS}
          {...orgs.sirens}
          pagination={{ ...orgs.sirens.pagination, items: compactPageItems(orgs.sirens.pagination.page, orgs.sirens.pagination.totalPages) }}
          disabled={submitting}
          onToggle={(siren) => send({ type: 'siren.toggle', siren })}
          onChoose={(siren) => send({ type: 'siren.choose', siren })}
          onSelectAll={(sirens) => send({ type: 'sirens.selectAll', sirens })}
          onDeselectAll={(sirenIds) => send({ type: 'sirens.deselectAll', sirenIds })}
        />
      )}
      {step === 'sirets' && (
        <SiretTab
          sirens={draft.sirens}
          selected={draft.sirets}
          lists={orgs.sirets.lists}
          searches={orgs.sirets.searches}
          searchDebounceMs={SIRET_SEARCH_DEBOUNCE_MS}
          disabled={submitting}
          lockedText={t.siretsLocked}
          onSearch={orgs.sirets.onSearch}
          onToggle={(siret) => send({ type: 'siret.toggle', siret })}
          onSelectAll={(sirenId) => send({ type: 'sirets.selectAll', sirenId, sirets: (orgs.sirets.lists[sirenId]?.items ?? []).map((o) => ({ ...o, sirenId })) })}
          onClear={(sirenId) => send({ type: 'sirets.clear', sirenId })}
        />
      )}
      {step === 'roles' && (
        <div className="space-y-3">
          {offeredRoles === null ? (
            <p className="text-sm text-slate-600">{fr.app.loading}</p>
          ) : (
            <RolesTab roles={offeredRoles} chosen={chosenRoleIds} disabled={submitting} onToggle={(roleId) => send({ type: 'role.toggle', roleId })} />
          )}
        </div>
      )}
    </WizardPage>
  );
}
