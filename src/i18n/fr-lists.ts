import type { AccountState } from '../domain/account-state';

/**
 * The texts of the lists (the users list and what every list shares: the combobox, the pagination, the sort): the
 * users screen imports these only, so that it does not download the texts of the other screens (fr.ts includes them).
 */
export const frLists = {
  /** An establishment closed in the Sirene register (issue 17): shown, not offered for new roles. */
  organizationClosed: 'Fermé',
  usersList: {
    title: 'Gestion des utilisateurs',
    titleFor: (name: string) => `Gestion des utilisateurs - ${name}`,
    tableCaption: 'Liste des utilisateurs',
    add: 'Ajouter un utilisateur',
    requestAdmin: 'Demander un administrateur',
    siren: 'SIREN',
    sirenSearch: 'Rechercher un SIREN',
    siret: 'SIRET',
    siretSearch: 'Rechercher un SIRET',
    all: 'Tous',
    role: 'Filtrer par rôle :',
    /** The account's state (OpenAPI AccountState; issue 23's dormant accounts, issue 24's links), 'Tous' first. */
    accountState: 'État du compte',
    accountStates: { dormant: 'Comptes dormants', invitationNotAccepted: 'Invitation non acceptée', setupLinkExpired: "Lien d'activation expiré" } satisfies Record<AccountState, string>,
    /** A dormant account: its last sign-in, or its creation if never (DD/MM/YYYY). */
    inactiveSince: (date: string) => `Inactif depuis le ${date}`,
    search: 'Rechercher par nom ou email...',
    searchLabel: 'Rechercher un utilisateur',
    columns: { name: 'Nom', email: 'Email', lastLogin: 'Dernière connexion', roles: 'Rôles', actions: 'Actions' },
    /** A card's status (below 640 px, issue 18); the table shows the inactive mark alone. */
    status: 'Statut',
    active: 'Actif',
    never: 'N/A',
    /** Issue 22: until the first sign-in, when the latest set-up link was sent (DD/MM/YYYY). */
    invitationSent: (date: string) => `Invitation envoyée le ${date}`,
    resendInvitation: "Renvoyer l'invitation",
    selectUser: (name: string) => `Sélectionner ${name}`,
    selectPage: 'Sélectionner les utilisateurs de la page',
    range: (from: number, to: number, total: number) => `Affichage ${from}-${to} sur ${total} utilisateurs`,
    none: 'Aucun utilisateur',
    empty: 'Aucun utilisateur trouvé',
    loading: 'Chargement des utilisateurs...',
    pageSize: 'Utilisateurs par page',
    inactive: 'Utilisateur désactivé',
    moreRoles: (n: number) => `+${n}`,
    otherRoles: (n: number) => `${n} autre(s) rôle(s)`,
    edit: 'Modifier',
    editUser: (name: string) => `Modifier ${name}`,
    cannotEdit: 'Vous ne pouvez pas modifier cet utilisateur',
    // An action the server's allowedActions leaves out for want of the right (the read-only back office).
    noRightEdit: "Vous n'avez pas le droit de modifier cet utilisateur.",
    noRightDeactivate: "Vous n'avez pas le droit de désactiver cet utilisateur.",
    noRightActivate: "Vous n'avez pas le droit d'activer cet utilisateur.",
    actions: (name: string) => `Actions pour ${name}`,
    viewProfile: 'Voir le profil',
    activate: 'Activer',
    deactivate: 'Désactiver',
    cannotDeactivate: 'Impossible de désactiver',
    deletePermanently: 'Supprimer définitivement',
    confirmDeactivate: (name: string) => `Êtes-vous sûr de vouloir désactiver ${name} ?`,
    confirmReactivate: (name: string) => `Êtes-vous sûr de vouloir réactiver ${name} ?`,
    confirmDelete: (name: string) =>
      `Êtes-vous sûr de vouloir supprimer définitivement ${name} ? Cette action est irréversible : toutes les données de l'utilisateur seront supprimées.`,
    deactivated: (name: string) => `"${name}" a été désactivé avec succès.`,
    activated: (name: string) => `"${name}" a été activé avec succès.`,
    deleted: (name: string) => `L'utilisateur "${name}" a été supprimé définitivement.`,
    deactivateFailed: 'La suppression a échoué.',
    reactivateFailed: "L'activation a échoué.",
    serverError: 'Erreur serveur.',
    deleteFailed: (message: string) => `Impossible de supprimer l'utilisateur: ${message}`,
  },
  combobox: {
    showOptions: (label: string) => `Afficher les options : ${label}`,
    searching: 'Recherche en cours...',
    noResult: 'Aucun résultat',
    results: (n: number) => `${n} option(s) disponible(s)`,
  },
  pagination: {
    label: 'Pagination',
    previous: 'Page précédente',
    next: 'Page suivante',
    page: (n: number) => `Page ${n}`,
  },
  sort: {
    ascending: 'tri croissant',
    descending: 'tri décroissant',
    sortBy: (column: string) => `Trier par ${column}`,
    /** The sort of a list drawn as cards (below 640 px, issue 18): a select of each column both ways. */
    label: 'Trier par',
    option: (column: string, order: 'asc' | 'desc') => `${column}, ${order === 'asc' ? 'tri croissant' : 'tri décroissant'}`,
  },
} as const;
