import { useMutation } from '@tanstack/react-query';
import type { ApiClient } from '../../api/client';
import { runApiChecks, type ApiCheckResult } from '../../api/api-checks';
import type { SessionProfile } from '../../machines/session/session.machine';
import { isBackOffice, permissionsOf } from '../../../rules/permissions';
import { useSession, useSessionActor } from '../../session';
import { ApiTestPage, type ApiTestUser } from '../../ui/api-test/api-test-page';
import type { ApiCheckView } from '../../ui/api-test/api-checks';
import { fr } from '../../i18n/fr';

const t = fr.apiTest;

function testUser(user: SessionProfile): ApiTestUser {
  return {
    email: user.email,
    name: [user.firstName, user.lastName].filter(Boolean).join(' '),
    userType: user.userType,
    backOffice: isBackOffice(user),
    active: user.isActive,
    permissions: [...permissionsOf(user)].sort(),
    organizations: isBackOffice(user)
      ? null
      : (user.organizations ?? []).map((o, index) => ({
          key: `${o.id}-${index}`,
          name: o.name ?? o.code,
          code: o.code,
          type: o.type,
          role: { code: o.role.code, name: o.role.name, permissions: (o.role.permissions ?? []).map((p) => p.code) },
        })),
  };
}

function checkView(result: ApiCheckResult): ApiCheckView {
  const base = { id: result.id, request: result.request, outcome: result.outcome };
  if (result.outcome === 'skipped') return { ...base, detail: result.reason };
  if (result.outcome === 'error') return { ...base, detail: t.failed(result.status, result.message) };
  return { ...base, detail: result.email !== undefined ? t.signedInAs(result.email) : t.total(result.total ?? 0) };
}

/** /test-v2-api: the session's user, the checks run with the API client, and a profile reload asked of the session actor. */
export function ApiTestFlow({ api }: { api: ApiClient }) {
  const session = useSessionActor();
  const user = useSession((s) => s.context.profile);
  const refreshing = useSession((s) => s.matches('loadingProfile'));
  const canRefresh = useSession((s) => s.can({ type: 'session.reloadProfile' }));
  const checks = useMutation({ mutationFn: (who: SessionProfile) => runApiChecks(api, who) });
  if (!user) return null;
  return (
    <ApiTestPage
      user={testUser(user)}
      checks={checks.data?.map(checkView) ?? null}
      running={checks.isPending}
      onRun={() => checks.mutate(user)}
      refreshing={refreshing}
      canRefresh={canRefresh}
      onRefresh={() => session.send({ type: 'session.reloadProfile' })}
    />
  );
}
