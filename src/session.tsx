import { createContext, useContext, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import type { Actor, SnapshotFrom } from 'xstate';
import type { SessionMachine } from './machines/session/session.machine';

export type SessionActor = Actor<SessionMachine>;

const SessionActorContext = createContext<SessionActor | null>(null);

/** The one session actor, created at start-up (main.tsx) and shared by every screen. */
export function SessionProvider({ actor, children }: { actor: SessionActor; children: ReactNode }) {
  return <SessionActorContext.Provider value={actor}>{children}</SessionActorContext.Provider>;
}

export function useSessionActor(): SessionActor {
  const actor = useContext(SessionActorContext);
  if (!actor) throw new Error('useSessionActor needs a SessionProvider');
  return actor;
}

export function useSession<T>(selector: (snapshot: SnapshotFrom<SessionMachine>) => T, compare?: (a: T, b: T) => boolean): T {
  return useSelector(useSessionActor(), selector, compare);
}
