/** The texts of the person's own account pages (/compte/…): loaded with those pages only. */
export const frAccount = {
  emailConfirmation: {
    title: 'Confirmez votre nouvelle adresse',
    documentTitle: 'Confirmer votre nouvelle adresse',
    loading: 'Chargement de votre compte...',
    current: 'Adresse actuelle',
    next: 'Nouvelle adresse de connexion',
    explanation:
      "Une fois l'adresse confirmée, vous vous connecterez au Portail Habilitations avec elle ; vos sessions ouvertes seront fermées et vous devrez vous reconnecter.",
    warning:
      "Ne confirmez que si vous avez demandé ce changement vous-même et si cette nouvelle adresse est bien la vôtre. Sinon, fermez cette page : rien ne changera et la demande expirera dans 24 heures.",
    confirm: 'Confirmer cette adresse',
    confirming: 'Confirmation en cours...',
    confirmedTitle: 'Adresse confirmée',
    confirmed: (email: string) => `Votre nouvelle adresse est confirmée. Connectez-vous désormais avec ${email}.`,
    signInAgain: 'Se reconnecter',
    invalidTitle: 'Lien invalide',
    invalidLink: "Ce lien n'est plus valable : il a expiré, a déjà servi, a été remplacé par une demande plus récente, ou n'est pas correct.",
    nothingTitle: 'Aucune adresse à confirmer',
    nothingPending: (email: string) => `Aucune nouvelle adresse n'attend de confirmation pour le compte connecté (${email}).`,
    otherAccountHint:
      "Si ce lien vous a été envoyé, seule la personne dont l'adresse change peut le confirmer : déconnectez-vous, puis ouvrez de nouveau le lien et connectez-vous avec l'adresse actuelle de ce compte.",
    failedTitle: 'Adresse non confirmée',
    serverError: 'Le serveur est momentanément indisponible. Réessayez dans quelques instants.',
    retry: 'Réessayer',
    signOut: 'Se déconnecter',
    home: "Retour à l'accueil",
  },
} as const;
