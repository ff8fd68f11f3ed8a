/**
 * The Accueil's 'À traiter' (issue 24): the work that waits for the person signed in, each line a link to the list that
 * holds it. Apart from fr-shell: the card loads after the first screen (src/features/home/home-work.tsx).
 */
export const frHome = {
  failed: "Ce qui est à traiter n'a pas pu être chargé. Réessayez dans un instant.",
  retry: 'Réessayer',
  nothing: 'Rien à traiter.',
  pendingRequests: (n: number) => (n === 1 ? '1 demande en attente' : `${n} demandes en attente`),
  longPendingRequests: (n: number, days: number) => `dont ${n} depuis plus de ${days} jours`,
  expiringRequests: (n: number, days: number) => (n === 1 ? `1 demande expire dans les ${days} jours` : `${n} demandes expirent dans les ${days} jours`),
  setupLinkExpiredUsers: (n: number) => (n === 1 ? "1 compte dont le lien d'activation a expiré" : `${n} comptes dont le lien d'activation a expiré`),
  myPendingRequests: (n: number) => (n === 1 ? '1 de vos demandes est en attente' : `${n} de vos demandes sont en attente`),
  invitationNotAcceptedUsers: (n: number) =>
    n === 1 ? "1 utilisateur n'a pas encore accepté son invitation" : `${n} utilisateurs n'ont pas encore accepté leur invitation`,
  dormantUsers: (n: number) => (n === 1 ? '1 compte dormant' : `${n} comptes dormants`),
};
