/** The texts of a person's data on request (issue 23): loaded with its section only (a profile, 'Mon profil' opened). */
export const frPersonalData = {
  heading: 'Données personnelles',
  introOther: "Tout ce que le portail conserve sur cette personne : profil, rôles, demandes, journal et e-mails reçus, sans aucun lien d'activation. Chaque téléchargement est inscrit au journal.",
  introSelf: "Tout ce que le portail conserve sur vous : profil, rôles, demandes, journal et e-mails reçus, sans aucun lien d'activation.",
  json: 'Télécharger (JSON)',
  html: 'Télécharger le résumé (HTML)',
  downloading: 'Téléchargement en cours…',
  done: (fileName: string) => `Fichier enregistré : ${fileName}`,
  failed: 'Le téléchargement a échoué.',
  failedBecause: (message: string) => `Le téléchargement a échoué : ${message}`,
  network: 'Le téléchargement a échoué : le serveur ne répond pas. Vérifiez votre connexion puis réessayez.',
  retry: 'Réessayer',
} as const;
