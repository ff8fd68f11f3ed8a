import { fromPromise } from 'xstate';
import type { QueryClient } from '@tanstack/react-query';
import { ApiFailure, type ApiClient } from '../../api/client';
import { fetchUserFullDetails, updateUserComplete, userDetailsKeys, type UserFullDetails } from '../../api/user-details';
import { usersKeys } from '../../api/users';
import { holdsInternalRole } from '../../domain/user-actions';
import { DETAIL_FIELDS, formFromAssignments, offeredRoles, organizationCodesOf, type EditDetails, type KnownOrganization } from '../../domain/user-edit';
import type { LoadedUser, LoadInput, SaveFailure, SaveInput } from './edit-tabs.machine';

/** Always from the server: a reload after a 409 must see the other person's change. */
function freshFullDetails(api: ApiClient, queryClient: QueryClient, userId: string): Promise<UserFullDetails> {
  return queryClient.fetchQuery({ queryKey: userDetailsKeys.fullDetails(userId), queryFn: () => fetchUserFullDetails(api, userId), staleTime: 0 });
}

/**
 * The organizations the form needs: those offered, plus the SIREN of any SIRET held outside them, as the answer
 * names it (parentOrganization: no request per SIREN, issue 18); a SIRET whose SIREN is not known is skipped.
 */
function knownOrganizations(details: UserFullDetails): KnownOrganization[] {
  const known = new Map<string, KnownOrganization>(details.availableOrganizations.map((o) => [o.id, o]));
  const orphans = details.assignments.filter((a) => a.organizationType === 'SIRET' && !known.get(known.get(a.organizationId)?.parentId ?? ''));
  for (const a of orphans) {
    const parent = a.parentOrganization;
    if (!parent) continue;
    if (!known.has(parent.id)) known.set(parent.id, { id: parent.id, code: parent.code, name: parent.name, type: 'SIREN', parentId: null });
    known.set(a.organizationId, { id: a.organizationId, code: a.organizationCode, name: a.organizationName, type: 'SIRET', parentId: parent.id });
  }
  return [...known.values()];
}

function toLoadedUser(details: UserFullDetails, organizations: KnownOrganization[], editor: LoadInput['editor']): LoadedUser {
  const { user, assignments } = details;
  const fields: EditDetails = Object.fromEntries(DETAIL_FIELDS.map((field) => [field, user[field] ?? ''])) as EditDetails;
  const target = { id: user.id, isActive: user.isActive, roles: assignments.map((a) => a.roleCode), organizations: assignments.map((a) => ({ role: { code: a.roleCode, type: a.roleType } })) };
  return {
    id: user.id,
    version: user.version,
    holdsInternalRole: holdsInternalRole(target),
    mayEdit: details.allowedActions.includes('edit'),
    pendingEmail: user.pendingEmail,
    form: formFromAssignments(fields, assignments, organizations),
    roles: offeredRoles(details.availableRoles, editor.backOffice).map(({ id, code, name, type }) => ({ id, code, name, type })),
    offeredSirens: organizations.filter((o) => o.type === 'SIREN').map(({ id, code, name }) => ({ id, code, name })),
  };
}

function failureMessage(error: unknown): string | null {
  if (!(error instanceof ApiFailure)) return null;
  const fields = error.body?.fieldErrors?.map((f) => f.message) ?? [];
  return fields.length ? [...new Set(fields)].join(' ') : error.message || null;
}

/** The edit page's API calls: the user's full details, and the complete update against the version loaded. */
export function editTabsActors(api: ApiClient, queryClient: QueryClient) {
  return {
    actors: {
      loadUser: fromPromise<LoadedUser, LoadInput>(async ({ input }) => {
        const details = await freshFullDetails(api, queryClient, input.userId);
        return toLoadedUser(details, knownOrganizations(details), input.editor);
      }),
      saveUser: fromPromise<void, SaveInput>(async ({ input }) => {
        const { details, roleIds } = input.form;
        const trimmed = Object.fromEntries(DETAIL_FIELDS.map((field) => [field, details[field].trim()])) as EditDetails;
        try {
          await updateUserComplete(api, input.userId, { ...trimmed, organizationCodes: organizationCodesOf(input.form), roleIds, version: input.version });
        } catch (error) {
          // A 409 is also the answer to an email already used: only a newer version means someone else changed the user.
          const stale = error instanceof ApiFailure && error.status === 409 && (await freshFullDetails(api, queryClient, input.userId).then((d) => d.user.version !== input.version, () => false));
          const failure: SaveFailure = stale ? { kind: 'stale' } : { kind: 'failed', message: failureMessage(error) };
          throw failure;
        } finally {
          void queryClient.invalidateQueries({ queryKey: usersKeys.all });
        }
      }),
    },
  };
}
