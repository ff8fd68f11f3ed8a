/** 'Durées de conservation' (issue 23): the back office's table of what the portal keeps, and the README's (one text per kind of GET /api/v2/retention). */
export const frRetention = {
  title: 'Durées de conservation',
  intro:
    "Ce que le portail garde, combien de temps, et ce qui se passe ensuite, selon les réglages du serveur en service. Chaque durée se change par son réglage (une variable d'environnement du serveur), lu au démarrage.",
  caption: 'Durées de conservation des données du portail',
  frame: 'Tableau des durées de conservation, défilant horizontalement',
  columns: { what: 'Données', duration: 'Durée', setting: 'Réglage', end: 'À la fin de la durée' },
  loading: 'Chargement des durées de conservation...',
  error: 'Les durées de conservation ne peuvent pas être affichées pour le moment. Réessayez plus tard.',
  off: 'Désactivé',
  offEnd: 'Rien : cette étape est désactivée (réglage à 0).',
  notKept: 'Non conservés par le portail',
  noSetting: 'Aucun',
  fixedInCode: 'Aucun : durée fixée dans le code',
  days: (n: number) => (n === 1 ? '1 jour' : `${n} jours`),
  kinds: {
    journal: {
      what: 'Journal des modifications (table audit_log) : qui a changé quoi, et quand',
      after: null,
      end: 'Les entrées plus anciennes sont supprimées, toutes les heures.',
    },
    outbox: {
      what: 'E-mails envoyés (ils contiennent les liens de création de compte)',
      after: "après l'envoi",
      end: "Ils sont supprimés de la file d'envoi, toutes les heures. Les e-mails en attente ou en échec ne sont jamais supprimés.",
    },
    pendingRequests: {
      what: "Demandes en attente (droits d'administrateur, rôles)",
      after: 'après la demande',
      end: 'La demande expire : elle passe au statut «\u00a0Expirée\u00a0» et reste dans la liste des demandes et dans le journal.',
    },
    bulkActionReports: {
      what: 'Comptes rendus des actions sur plusieurs utilisateurs (noms et e-mails des personnes choisies)',
      after: "après la fin de l'action",
      end: 'Ils sont supprimés, toutes les heures. Ce que chaque personne a subi reste dans le journal.',
    },
    exports: {
      what: 'Exports CSV (liste des utilisateurs, journal)',
      after: null,
      end: "Le fichier est envoyé au navigateur au fur et à mesure de sa lecture : le portail n'en garde aucune copie. Chaque export laisse une entrée dans le journal.",
    },
    dormancyWarning: {
      what: 'Comptes sans connexion : avertissement',
      after: "sans connexion (depuis la création du compte pour qui ne s'est jamais connecté)",
      end: 'La personne est prévenue par e-mail.',
    },
    dormancyDeactivation: {
      what: 'Comptes sans connexion : désactivation',
      after: "après l'avertissement, toujours sans connexion",
      end: "Le compte est désactivé ; le journal l'enregistre au nom de «\u00a0Système\u00a0».",
    },
    dormancyDeletion: {
      what: 'Comptes sans connexion : suppression',
      after: 'après la désactivation',
      end: 'Le compte est supprimé définitivement, comme par une suppression manuelle. Les comptes du back-office ne sont jamais supprimés automatiquement.',
    },
    serverLogs: {
      what: 'Journaux techniques du serveur (requêtes, erreurs)',
      after: null,
      end: "Le portail les écrit sur sa sortie standard et n'en garde aucun. Leur durée de conservation est celle de la plateforme d'hébergement qui les recueille : elle se règle chez l'hébergeur.",
    },
  },
} as const;
