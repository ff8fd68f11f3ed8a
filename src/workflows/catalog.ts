// Every machine of src/machines and rules/ (the shared ones the server asks too), as analysts read it: adding a machine is adding one entry here (the
// coverage gate, tests/workflows/workflows-gate.test.ts, fails until there is one).
import { sessionMachine } from '../machines/session/session.machine';
import { guardMachine } from '../machines/guard/guard.machine';
import { invitationDecisionMachine } from '../machines/invitation-decision/invitation-decision.machine';
import { userActivationMachine } from '../machines/user-activation/user-activation.machine';
import { editTabsMachine } from '../machines/edit-tabs/edit-tabs.machine';
import { creationWizardMachine } from '../machines/creation-wizard/creation-wizard.machine';
import { assignAdminMachine } from '../machines/assign-admin/assign-admin.machine';
import { emailConfirmationMachine } from '../machines/email-confirmation/email-confirmation.machine';
import { csvExportMachine } from '../machines/csv-export/csv-export.machine';
import { bulkActionMachine } from '../machines/bulk-action/bulk-action.machine';
import type { WorkflowEntry } from './catalog-types';
import { accountLifecycle, requestCancellation, requestLifecycle } from './catalog-requests';
import { personalDataDownload } from './catalog-personal-data';

export type { WorkflowCoverage, WorkflowEntry, WorkflowScreen } from './catalog-types';

const session: WorkflowEntry = {
  machine: sessionMachine,
  title: 'Session et connexion',
  description:
    "Connexion par le fournisseur d'identité, jeton copié dans le cookie, chargement du profil (avec repli sur le profil en cache si le serveur est indisponible), relecture du cookie toutes les 5 s, renouvellement silencieux du jeton et déconnexion (spec §2 Sign-in, §4 Session, §8).",
  screens: [
    { path: '/authentication/sign-in', name: 'Connexion' },
    { path: '/authentication/redirect-login', name: "Retour du fournisseur d'identité" },
    { path: '/authentication/sign-out', name: 'Déconnexion' },
    { path: '/dashboard', name: "Cadre de toutes les pages connectées (utilisateur, message d'indisponibilité)" },
    { path: '/test-v2-api', name: "Test de l'API v2 (rafraîchir l'utilisateur)" },
  ],
  states: {
    startup: 'Démarrage de la bibliothèque de connexion',
    handlingRedirect: "Traitement du retour du fournisseur d'identité",
    checkingToken: 'Lecture du cookie de jeton',
    signedOut: 'Déconnecté',
    startingSignIn: 'Connexion imminente (1 s)',
    loggingIn: 'Redirection vers la connexion',
    completingLogin: 'Après la connexion (attente de 1 s)',
    acquiringToken: 'Obtention silencieuse du jeton',
    loadingProfile: 'Chargement du profil',
    signedIn: 'Connecté',
    polling: 'Relecture du cookie',
    renewing: 'Renouvellement silencieux du jeton',
    deactivated: 'Compte désactivé',
    signingOut: 'Déconnexion en cours',
  },
  events: {
    'session.signIn': 'Démarrer la connexion',
    'session.completeLogin': 'Terminer la connexion (retour du fournisseur)',
    'session.signOut': 'Se déconnecter',
    'session.storageChanged': 'Stockage modifié (autre onglet)',
    'session.reloadProfile': 'Recharger le profil',
  },
  actors: {
    initializeAuth: 'Initialiser la bibliothèque de connexion (MSAL)',
    handleRedirect: 'Traiter le retour de connexion',
    readToken: 'Lire le cookie portail.accessToken',
    login: "Rediriger vers le fournisseur d'identité",
    acquireToken: 'Obtenir le jeton sans interaction',
    loadProfile: 'Charger le profil (GET /api/v2/users/me)',
    signOut: "Effacer l'état local et se déconnecter",
  },
};

const guard: WorkflowEntry = {
  machine: guardMachine,
  title: 'Garde des routes',
  description:
    "L'ordre de la spec §4 : pendant le chargement de la session, un indicateur ; sans utilisateur, la connexion ; ensuite back-office seul, permission requise et rôles requis, faute de quoi la page de repli (/dashboard par défaut) ; sinon la page.",
  screens: [
    { path: '/dashboard', name: 'Toutes les pages connectées' },
    { path: '/admin', name: 'Habilitation des administrateurs (back-office seul)' },
    { path: '/admin-actions', name: 'Nouvelle demande administrateur (USER_CREATE)' },
    { path: '/workflows', name: 'Workflows (back-office seul)' },
  ],
  states: {
    evaluating: 'Évaluation des règles',
    loading: 'Session en chargement (indicateur)',
    redirectingToSignIn: 'Redirection vers la connexion',
    redirectingToFallback: 'Redirection vers la page de repli',
    rendering: 'Affichage de la page',
  },
  events: { 'session.changed': 'La session a changé' },
  actors: {},
};

const invitationDecision: WorkflowEntry = {
  machine: invitationDecisionMachine,
  title: "Décision sur une demande d'administrateur",
  description:
    "Approuver ou rejeter une demande : confirmation, motif d'au moins 10 caractères pour un rejet, appel à l'API, puis succès (retour à /admin 1 s après, depuis le détail) ou échec. Seule une demande en attente peut être décidée (spec §2, §4, §5).",
  screens: [
    { path: '/admin', name: 'Habilitation des administrateurs' },
    { path: '/admin/{id}', name: "Détail de l'invitation" },
  ],
  states: {
    idle: 'En attente d’une action',
    confirmingApproval: "Confirmation de l'approbation",
    confirmingRejection: 'Confirmation du rejet (motif)',
    processing: 'Traitement en cours',
    succeeded: 'Décision enregistrée',
    failed: 'Échec de la décision',
    finished: 'Terminé (retour à la liste)',
  },
  events: {
    'invitation.updated': 'Demande mise à jour',
    'invitation.approve': 'Approuver',
    'invitation.reject': 'Rejeter',
    'decision.confirm': 'Confirmer',
    'decision.cancel': 'Annuler',
    'reason.change': 'Saisie du motif',
    'decision.dismiss': "Fermer le message d'erreur",
  },
  actors: { decide: 'Approuver ou rejeter (POST /api/v2/invitations/{id}/approve ou /reject)' },
};

const userActivation: WorkflowEntry = {
  machine: userActivationMachine,
  title: "Activation d'un utilisateur",
  description:
    "Désactiver, réactiver ou supprimer définitivement un utilisateur de la liste, ou lui renvoyer l'invitation s'il ne s'est jamais connecté (depuis la liste ou son profil) : confirmation, appel, puis succès ou échec. Une action n'est proposée que permise : jamais sur soi-même, pas sur un administrateur pour un utilisateur adhérent, suppression définitive pour le back-office avec USER_DELETE et B2C_USER_DISABLE (spec §2, §4, §8).",
  screens: [
    { path: '/utilisateurs', name: 'Gestion des utilisateurs' },
    { path: '/utilisateurs/{id}', name: "Profil utilisateur (Renvoyer l'invitation)" },
  ],
  states: {
    idle: 'Aucune action en cours',
    confirming: 'Confirmation',
    processing: 'Traitement en cours',
    succeeded: 'Action réussie',
    failed: 'Action échouée',
  },
  events: {
    'user.deactivate': 'Désactiver',
    'user.reactivate': 'Réactiver',
    'user.delete': 'Supprimer définitivement',
    'user.resendInvitation': "Renvoyer l'invitation (jamais connecté)",
    'activation.confirm': 'Confirmer',
    'activation.cancel': 'Annuler',
    'activation.dismiss': 'Fermer le message',
  },
  actors: { perform: "Exécuter l'action (POST /api/v2/users/{id}/deactivate, /reactivate ou /resend-invitation, DELETE /api/v2/users/{id}?hardDelete=true)" },
};

const editTabs: WorkflowEntry = {
  machine: editTabsMachine,
  title: "Modification d'un utilisateur",
  description:
    "Refus pour soi-même et, pour un utilisateur adhérent, pour le titulaire d'un rôle interne ; quatre onglets, SIRET ouvert une fois un SIREN choisi, Rôles une fois un SIRET par SIREN ; enregistrement seulement avec un changement et un choix complet, sur la version chargée (spec §2, §4, §5, §6).",
  screens: [{ path: '/utilisateurs/edit/{userId}', name: 'Modifier un utilisateur' }],
  states: {
    checking: 'Vérification (soi-même ?)',
    loading: "Chargement de l'utilisateur",
    loadFailed: 'Échec du chargement',
    refused: 'Modification refusée',
    editing: 'Modification',
    'editing.details': 'Onglet Détails Personnels',
    'editing.siren': 'Onglet SIREN',
    'editing.siret': 'Onglet SIRET',
    'editing.roles': 'Onglet Rôles',
    'editing.previous': 'Dernier onglet ouvert',
    saving: 'Enregistrement',
    stale: 'Modifié entre-temps par une autre personne',
    saved: 'Enregistré',
    cancelled: 'Annulé',
  },
  events: {
    'edit.reload': 'Recharger',
    'tab.select': 'Choisir un onglet',
    'sirets.loaded': 'SIRET chargés',
    'edit.save': 'Enregistrer',
    'edit.cancel': 'Annuler',
    'details.change': "Saisie d'un champ",
    'siren.add': 'Ajouter un SIREN',
    'siren.remove': 'Retirer un SIREN',
    'siret.toggle': 'Cocher ou décocher un SIRET',
    'sirets.selectAll': 'Tout sélectionner',
    'sirets.clear': 'Tout désélectionner',
    'role.toggle': 'Cocher ou décocher un rôle',
    'stale.dismiss': 'Continuer la saisie',
  },
  actors: {
    loadUser: "Charger l'utilisateur (GET /api/v2/users/{id}/full-details)",
    saveUser: 'Enregistrer (PUT /api/v2/users/{id}/complete)',
  },
};

const creationWizard: WorkflowEntry = {
  machine: creationWizardMachine,
  title: "Assistant de création d'utilisateur",
  description:
    "Les 4 étapes (détails personnels, SIREN, SIRET, rôles) : 'Suivant' seulement quand l'étape est complète, une seule soumission à la fois. En mode normal, l'utilisateur est créé ; en mode administrateur, la demande part en invitation (un seul SIREN, rôles internes) (spec §2, §4, §5).",
  screens: [
    { path: '/utilisateurs/creer', name: 'Créer un utilisateur / Demander un administrateur' },
    { path: '/admin-actions', name: 'Nouvelle demande administrateur (création de compte)' },
  ],
  states: {
    editing: 'Saisie',
    'editing.details': 'Étape 1 : détails personnels',
    'editing.sirens': 'Étape 2 : SIREN',
    'editing.sirets': 'Étape 3 : SIRET',
    'editing.roles': 'Étape 4 : rôles',
    submitting: 'Envoi en cours',
    submitted: 'Envoyé',
  },
  events: {
    'sirets.loaded': 'SIRET chargés',
    'roles.offered': 'Rôles proposés chargés',
    'details.change': "Saisie d'un champ",
    'wizard.next': 'Suivant',
    'wizard.back': 'Étape précédente',
    'wizard.submit': 'Créer',
    'siren.toggle': 'Cocher ou décocher un SIREN',
    'siren.choose': 'Choisir le SIREN (mode administrateur)',
    'sirens.selectAll': 'Tout sélectionner (sur cette recherche)',
    'sirens.deselectAll': 'Tout désélectionner (sur cette recherche)',
    'siret.toggle': 'Cocher ou décocher un SIRET',
    'sirets.selectAll': 'Tout sélectionner pour un SIREN',
    'sirets.clear': 'Tout désélectionner pour un SIREN',
    'role.toggle': 'Cocher ou décocher un rôle',
  },
  actors: { submitCreation: "Créer l'utilisateur (POST /api/v2/users/complete) ou envoyer l'invitation (POST /api/v2/invitations)" },
};

const assignAdmin: WorkflowEntry = {
  machine: assignAdminMachine,
  title: "Attribution du rôle d'administrateur à un utilisateur existant",
  description:
    "Choisir un utilisateur éligible (sans rôle interne ni demande en attente), puis une demande ROLE_ASSIGNMENT par SIREN de ses organisations. Jamais de soumission sans sélection éligible, ni pour un utilisateur sans SIREN (spec §2 Assign-existing, §5, §8).",
  screens: [{ path: '/admin-actions/assign-existing', name: "Attribuer le rôle d'administrateur à un utilisateur existant" }],
  states: {
    browsing: 'Recherche d’un utilisateur',
    selected: 'Utilisateur sélectionné',
    submitting: 'Soumission en cours',
    submitted: 'Demandes créées',
  },
  events: {
    'user.select': 'Sélectionner un utilisateur',
    'selection.clear': 'Changer',
    'request.submit': 'Soumettre la demande',
  },
  actors: { submitRequests: 'Créer une demande par SIREN (POST /api/v2/invitations)' },
};

const emailConfirmation: WorkflowEntry = {
  machine: emailConfirmationMachine,
  title: "Confirmation d'une nouvelle adresse",
  description:
    "La personne dont l'adresse change, connectée avec son adresse actuelle, confirme la nouvelle depuis le lien qui lui a été envoyé : lecture de son compte, puis confirmation, que le serveur refuse si le lien concerne un autre compte. Aucun appel pour un lien mal formé ; un refus est définitif, une panne du réseau ou du serveur peut être réessayée.",
  screens: [{ path: '/compte/confirmer-email', name: 'Confirmez votre nouvelle adresse' }],
  states: {
    checking: 'Vérification du lien',
    loading: 'Lecture du compte connecté',
    loadFailed: 'Échec de la lecture du compte',
    ready: 'Nouvelle adresse à confirmer',
    confirming: 'Confirmation en cours',
    failed: 'Adresse non confirmée',
    invalidLink: 'Lien invalide',
    nothingPending: 'Aucune adresse à confirmer pour ce compte',
    confirmed: 'Adresse confirmée',
  },
  events: {
    'confirmation.confirm': 'Confirmer cette adresse',
    'confirmation.retry': 'Réessayer',
  },
  actors: {
    loadAccount: 'Lire le compte connecté (GET /api/v2/users/me)',
    confirm: 'Confirmer (POST /api/v2/users/me/email-confirmation)',
  },
};

const csvExport: WorkflowEntry = {
  machine: csvExportMachine,
  title: 'Export CSV d’une liste',
  description:
    "Téléchargement de la liste filtrée au format CSV (issue 21) : le fichier arrive par morceaux et le nombre de lignes reçues s'affiche ; l'export peut être annulé (la requête est interrompue) ; le fichier complet est enregistré dans les téléchargements. Le serveur n'accepte qu'un export à la fois par personne (429, dont le message s'affiche).",
  screens: [{ path: '/utilisateurs', name: 'Gestion des utilisateurs (Exporter (CSV))' }],
  states: {
    idle: 'Aucun export',
    downloading: 'Téléchargement en cours (lignes reçues)',
    saving: 'Enregistrement du fichier',
    done: 'Export terminé',
    failed: "L'export a échoué",
    cancelled: 'Export annulé',
  },
  events: {
    'export.start': 'Exporter (CSV) avec les filtres de la liste',
    'export.cancel': "Annuler l'export",
    'export.progress': 'Un morceau du fichier est arrivé',
    'export.received': 'Le fichier est complet',
    'export.failed': 'Le téléchargement a échoué',
  },
  actors: {
    download: 'Télécharger le fichier (GET /api/v2/users/export), lu au fil de l’eau',
    save: 'Enregistrer le fichier (lien vers une URL d’objet)',
  },
};

const bulkAction: WorkflowEntry = {
  machine: bulkActionMachine,
  title: 'Actions sur plusieurs utilisateurs',
  description:
    "Sélection dans la liste des utilisateurs (des personnes cochées, gardées d'une page à l'autre, ou tous les résultats des filtres), puis une action : désactiver, réactiver, renvoyer l'invitation, ou supprimer définitivement (back-office avec USER_DELETE et B2C_USER_DISABLE). Une confirmation nomme le nombre et l'action ; le serveur mène l'action comme une tâche, dont l'avancement est lu chaque seconde ; puis un compte rendu : combien ont réussi, et chaque refus avec sa raison. La liste est relue à la fin (issue 22).",
  screens: [{ path: '/utilisateurs', name: 'Gestion des utilisateurs (sélection et actions)' }],
  states: {
    idle: 'Aucune sélection',
    selecting: 'Sélection en cours',
    confirming: "Confirmation (nombre et action)",
    starting: "Démarrage de l'action",
    running: 'Action en cours (avancement)',
    'running.waiting': 'Attente avant la lecture suivante (1 s)',
    'running.polling': "Lecture de l'avancement",
    interrupted: "Suivi de l'action interrompu",
    report: 'Compte rendu (réussites et refus)',
    failed: "L'action n'a pas pu démarrer",
  },
  events: {
    'selection.toggle': 'Cocher ou décocher une personne',
    'selection.togglePage': 'Cocher ou décocher la page',
    'selection.selectAll': 'Sélectionner tous les résultats des filtres',
    'selection.clear': 'Effacer la sélection (ou filtres changés)',
    'bulk.choose': 'Choisir une action',
    'bulk.confirm': 'Confirmer',
    'bulk.cancel': 'Annuler',
    'bulk.retry': "Relire l'avancement",
    'bulk.dismiss': 'Fermer',
  },
  actors: {
    start: "Démarrer l'action (POST /api/v2/users/bulk-actions)",
    poll: "Lire l'avancement (GET /api/v2/users/bulk-actions/{id})",
  },
};

export const workflowCatalog: readonly WorkflowEntry[] = [
  session,
  guard,
  invitationDecision,
  userActivation,
  editTabs,
  creationWizard,
  assignAdmin,
  emailConfirmation,
  csvExport,
  requestLifecycle,
  requestCancellation,
  accountLifecycle,
  bulkAction,
  personalDataDownload,
];

export function workflowId(entry: WorkflowEntry): string {
  return entry.machine.id;
}
