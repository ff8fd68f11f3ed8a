// The catalog entries of the requests' lifecycle (issue 22): the machine the server's services ask (shared, in
// rules/) and the cancellation of 'Mes demandes'. Listed in ./catalog.ts with the others.
import { accountLifecycleMachine } from '../../rules/account-lifecycle.machine';
import { requestLifecycleMachine } from '../../rules/request-lifecycle.machine';
import { requestCancellationMachine } from '../machines/request-cancellation/request-cancellation.machine';
import type { WorkflowEntry } from './catalog-types';

export const requestLifecycle: WorkflowEntry = {
  machine: requestLifecycleMachine,
  title: "Cycle de vie d'une demande (serveur)",
  description:
    "Les statuts d'une demande et qui peut la faire passer de l'un à l'autre : en attente, puis approuvée ou rejetée (back-office disposant de USER_CREATE), annulée (la personne qui l'a faite, ou ce back-office) ou expirée (le portail, INVITATION_EXPIRY_DAYS jours après la demande, 30 par défaut). Tout autre statut est définitif. Le serveur la consulte avant chaque changement (approuver, rejeter, annuler, faire expirer) et répond 409 à un changement qu'elle refuse.",
  screens: [
    { path: '/admin', name: 'Habilitation des administrateurs' },
    { path: '/admin/{id}', name: "Détail de l'invitation" },
    { path: '/admin-actions/demandes', name: 'Mes demandes' },
  ],
  states: {
    pending: 'En attente',
    approved: 'Approuvée',
    rejected: 'Refusée',
    expired: 'Expirée',
    cancelled: 'Annulée',
  },
  events: {
    'request.approve': 'Approuver (back-office avec USER_CREATE)',
    'request.reject': 'Rejeter (back-office avec USER_CREATE)',
    'request.cancel': "Annuler (la personne qui l'a faite, ou le back-office avec USER_CREATE)",
    'request.expire': 'Délai écoulé (tâche planifiée du portail)',
  },
  actors: {},
  serverFigures: true,
};

export const requestCancellation: WorkflowEntry = {
  machine: requestCancellationMachine,
  title: "Annulation d'une demande",
  description:
    "Sur 'Mes demandes', annuler une demande encore en attente : une confirmation avec un motif facultatif (500 caractères au plus), l'appel à l'API, puis la demande annulée ou le refus du serveur (déjà traitée, expirée…). Proposée seulement quand le serveur l'autorise.",
  screens: [{ path: '/admin-actions/demandes', name: 'Mes demandes' }],
  states: {
    idle: 'Aucune annulation en cours',
    askingReason: 'Confirmation (motif facultatif)',
    cancelling: 'Annulation en cours',
    done: 'Demande annulée',
    failed: "Échec de l'annulation",
  },
  events: {
    'request.cancel': 'Annuler une demande',
    'reason.change': 'Saisie du motif',
    'cancellation.confirm': "Confirmer l'annulation",
    'cancellation.abort': 'Ne pas annuler',
    'cancellation.dismiss': 'Fermer le message',
  },
  actors: { cancel: 'Annuler la demande (POST /api/v2/invitations/{id}/cancel)' },
};

export const accountLifecycle: WorkflowEntry = {
  machine: accountLifecycleMachine,
  title: "Cycle de vie d'un compte (serveur)",
  description:
    "Les états du compte d'une personne face à l'inactivité : actif ; prévenu par e-mail après DORMANCY_WARN_AFTER_DAYS jours sans connexion (365 par défaut, comptés depuis la création sans connexion) ; désactivé par le portail DORMANCY_DEACTIVATE_AFTER_DAYS jours après l'avertissement (30 par défaut) ; supprimé par le portail DORMANCY_DELETE_AFTER_DAYS jours après cette désactivation (365 par défaut), jamais un compte du back-office. Une connexion met fin à l'avertissement ; une réactivation fait repartir le délai. 0 arrête l'étape. Les tâches planifiées du serveur la consultent avant chaque changement.",
  screens: [{ path: '/utilisateurs', name: 'Gestion des utilisateurs' }],
  states: {
    active: 'Actif',
    dormantWarned: 'Prévenu de son inactivité',
    deactivated: 'Désactivé',
    deleted: 'Supprimé',
  },
  events: {
    'account.warn': 'Délai sans connexion écoulé : e-mail de prévenance (tâche planifiée du portail)',
    'account.signIn': 'Connexion de la personne',
    'account.deactivate': 'Désactiver (une personne autorisée, ou le portail une fois le délai écoulé)',
    'account.reactivate': 'Réactiver (une personne autorisée)',
    'account.delete': 'Supprimer définitivement (le back-office, ou le portail une fois le délai écoulé, jamais un compte du back-office)',
  },
  actors: {},
  serverFigures: true,
  // « » hold their words with no-break spaces: a line never starts with a closing one.
  figuresNote: [
    "D'où viennent ces chiffres : le journal (créations, désactivations, réactivations, suppressions, connexions qui lèvent un avertissement ; les changements du portail sont signés «\u00a0Système\u00a0») et les comptes eux-mêmes (avertissements encore en cours ou suivis d'une désactivation). Un avertissement levé depuis par une connexion, une réactivation ou une suppression est compté d'après son entrée au journal.",
    "Une désactivation par une personne part de «\u00a0Prévenu de son inactivité\u00a0» quand le compte, toujours désactivé, garde son avertissement, ou quand la réactivation ou la suppression qui l'a suivie a levé un avertissement, sinon d'«\u00a0Actif\u00a0». La suppression d'un compte actif part de «\u00a0Prévenu de son inactivité\u00a0» quand son entrée au journal dit le compte prévenu, sinon d'«\u00a0Actif\u00a0».",
    "Ces connexions et l'avertissement d'un compte supprimé ou réactivé ne sont inscrits au journal que depuis la version du portail qui les compte : une connexion antérieure n'est pas comptée, la suppression antérieure d'un compte prévenu compte sur «\u00a0Actif → Supprimé\u00a0», et l'avertissement qu'elles ont levé n'est pas compté.",
    "Durées : depuis l'avertissement, la désactivation précédente, ou la création, la réactivation ou la connexion qui a levé un avertissement inscrites au journal ; pour un avertissement encore inscrit sur le compte, depuis la dernière connexion, création ou réactivation.",
  ],
};
