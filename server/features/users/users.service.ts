// The users use cases, one object for the API: reads, creation, changes, permanent delete.
import { usersBackOfficeService } from './users-backoffice.service.ts';
import { usersCreateService } from './users-create.service.ts';
import { usersEditService } from './users-edit.service.ts';
import { usersEmailService } from './users-email.service.ts';
import { usersErasureService } from './users-erasure.service.ts';
import { usersExportService } from './users-export.service.ts';
import { usersInvitationService } from './users-invitation.service.ts';
import { usersPersonalDataService } from './users-personal-data.service.ts';
import { fullDetailsOf, usersReadService } from './users-read.service.ts';
import type { ServiceDeps as UsersDeps } from '../services.ts';
import type { Actor } from '../../core/actor.ts';
import type { VisibleUser } from './users-read.service.ts';



export function usersService(deps: UsersDeps) {
  return {
    ...usersReadService(deps),
    ...usersCreateService(deps),
    ...usersBackOfficeService(deps),
    ...usersEditService(deps),
    ...usersEmailService(deps),
    ...usersErasureService(deps),
    ...usersExportService(deps),
    ...usersInvitationService(deps),
    ...usersPersonalDataService(deps),
    /** The edit page's view of a user just changed. */
    fullDetailsOf: (actor: Actor, found: VisibleUser) => fullDetailsOf(deps.db, actor, found),
  };
}

export type UsersService = ReturnType<typeof usersService>;
