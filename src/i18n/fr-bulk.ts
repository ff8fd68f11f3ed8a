/**
 * The texts of the actions on many users and of a new set-up link (issue 22): loaded with the selection's toolbar
 * and the confirmations, after the list (the list itself draws its few words from fr-lists.ts).
 */
const count = (n: number) => n.toLocaleString('fr-FR');
const users = (n: number) => (n === 1 ? '1 utilisateur' : `${count(n)} utilisateurs`);

export const frBulk = {
  toolbar: 'Actions sur la sélection',
  selected: (n: number) => `${count(n)} sélectionné(s)`,
  selectAll: (n: number) => `Sélectionner les ${count(n)} utilisateurs`,
  allSelected: (n: number) => `Les ${users(n)} des filtres sont sélectionnés.`,
  clear: 'Effacer la sélection',
  action: { deactivate: 'Désactiver', reactivate: 'Réactiver', resendInvitation: "Renvoyer l'invitation", delete: 'Supprimer définitivement' },
  confirmTitle: {
    deactivate: (n: number) => `Désactiver ${users(n)}`,
    reactivate: (n: number) => `Réactiver ${users(n)}`,
    resendInvitation: (n: number) => `Renvoyer l'invitation à ${users(n)}`,
    delete: (n: number) => `Supprimer définitivement ${users(n)}`,
  },
  confirmText: {
    deactivate: (n: number) => `Êtes-vous sûr de vouloir désactiver ${users(n)} ?`,
    reactivate: (n: number) => `Êtes-vous sûr de vouloir réactiver ${users(n)} ?`,
    resendInvitation: (n: number) =>
      `Êtes-vous sûr de vouloir renvoyer l'invitation à ${users(n)} ? Chaque personne qui ne s'est jamais connectée reçoit un nouveau lien par e-mail ; le précédent ne fonctionnera plus.`,
    delete: (n: number) =>
      `Êtes-vous sûr de vouloir supprimer définitivement ${users(n)} ? Cette action est irréversible : toutes les données de ces utilisateurs seront supprimées.`,
  },
  confirm: 'Confirmer',
  cancel: 'Annuler',
  starting: "Démarrage de l'action...",
  running: "L'action est en cours sur le serveur ; son avancement s'affiche ci-dessous.",
  progressLabel: 'Avancement',
  progress: (done: number, total: number) => `${count(done)} sur ${count(total)} traité(s)`,
  reportTitle: {
    deactivate: 'Désactivation terminée',
    reactivate: 'Réactivation terminée',
    resendInvitation: "Renvoi de l'invitation terminé",
    delete: 'Suppression terminée',
  },
  succeeded: (n: number, total: number) => `${count(n)} sur ${users(total)} : réussi.`,
  refusals: (n: number) => `${count(n)} refus`,
  noRefusal: 'Aucun refus.',
  moreRefusals: (n: number) => `… et ${count(n)} autre(s) refus.`,
  outOfReach: 'Utilisateur hors de votre périmètre',
  close: 'Fermer',
  failedTitle: "L'action n'a pas démarré",
  network: 'Le serveur ne répond pas. Vérifiez votre connexion puis réessayez.',
  failed: "L'action n'a pas pu démarrer.",
  interruptedTitle: "Suivi de l'action interrompu",
  interrupted: "L'action se poursuit sur le serveur, mais son avancement n'a pas pu être lu.",
  retry: 'Réessayer',
  resend: {
    confirm: (name: string) => `Renvoyer l'invitation à ${name} ? Un nouveau lien de création de compte lui sera envoyé par e-mail ; le précédent ne fonctionnera plus.`,
    sent: (name: string) => `Un nouveau lien a été envoyé à "${name}".`,
    failed: "Le renvoi de l'invitation a échoué.",
  },
} as const;
