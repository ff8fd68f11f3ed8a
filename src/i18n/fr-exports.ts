/** The texts of the CSV exports (issue 21): loaded with the export's button only, after the list. */
const lines = (n: number) => `${n.toLocaleString('fr-FR')} ligne${n > 1 ? 's' : ''}`;

export const frExports = {
  exportCsv: 'Exporter (CSV)',
  /** Issue 22: the people selected on the users list only. */
  exportSelection: 'Exporter la sélection (CSV)',
  exportSelectionDescription: 'Télécharger les utilisateurs sélectionnés au format CSV (Excel, LibreOffice)',
  exportDescription: 'Télécharger la liste filtrée au format CSV (Excel, LibreOffice)',
  inProgress: (rows: number) => `Export en cours… ${lines(rows)}`,
  saving: (rows: number) => `Enregistrement du fichier… ${lines(rows)}`,
  cancel: "Annuler l'export",
  done: (rows: number) => `Export terminé : ${lines(rows)}.`,
  cancelled: 'Export annulé.',
  failed: "L'export a échoué.",
  failedBecause: (message: string) => `L'export a échoué : ${message}`,
  network: "L'export a échoué : le serveur ne répond pas. Vérifiez votre connexion puis réessayez.",
} as const;
