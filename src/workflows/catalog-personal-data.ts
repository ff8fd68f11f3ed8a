// The catalog entry of a person's data on request (issue 23): its download from a profile or 'Mon profil'.
// Listed in ./catalog.ts with the others.
import { personalDataDownloadMachine } from '../machines/personal-data-download/personal-data-download.machine';
import type { WorkflowEntry } from './catalog-types';

export const personalDataDownload: WorkflowEntry = {
  machine: personalDataDownloadMachine,
  title: 'Téléchargement des données personnelles',
  description:
    "Tout ce que le portail conserve sur une personne (issue 23) : un fichier JSON ou un résumé lisible en HTML, téléchargé depuis le profil d'un utilisateur (le back-office disposant de USER_LIST) ou depuis « Mon profil » (ses propres données). Sans aucun lien d'activation ou de confirmation. En cas d'échec, le message du serveur s'affiche avec « Réessayer ». Chaque téléchargement est inscrit au journal.",
  screens: [
    { path: '/utilisateurs/{id}', name: "Profil d'un utilisateur (Données personnelles)" },
    { path: '/dashboard', name: 'Mon profil (Données personnelles)' },
  ],
  states: {
    idle: 'Aucun téléchargement',
    downloading: 'Téléchargement en cours',
    done: 'Fichier enregistré',
    failed: 'Le téléchargement a échoué',
  },
  events: {
    'download.start': 'Télécharger (JSON) ou Télécharger le résumé (HTML)',
    'download.retry': 'Réessayer',
  },
  actors: {
    download: 'Télécharger le fichier (GET /api/v2/users/{id}/personal-data ou /users/me/personal-data) et l’enregistrer',
  },
};
