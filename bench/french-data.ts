// Word lists of the benchmark data set (npm run bench:seed): French first and last names with their
// rough frequency among working adults, kinds and names of health and medico-social employers, mail
// providers. Towns, streets, job titles and rejection reasons come from the demo seed (server/seed/seed-data.ts).

/** [first name, gender, weight]: the healthcare workforce is about three quarters women. */
export const BENCH_FIRST_NAMES: readonly (readonly [string, 'F' | 'M', number])[] = [
  ['Nathalie', 'F', 30], ['Isabelle', 'F', 30], ['Sylvie', 'F', 26], ['Catherine', 'F', 26], ['Christine', 'F', 24],
  ['Valérie', 'F', 24], ['Sandrine', 'F', 24], ['Véronique', 'F', 22], ['Stéphanie', 'F', 24], ['Céline', 'F', 24],
  ['Sophie', 'F', 22], ['Aurélie', 'F', 22], ['Julie', 'F', 22], ['Émilie', 'F', 20], ['Caroline', 'F', 18],
  ['Marie', 'F', 28], ['Anne', 'F', 16], ['Laurence', 'F', 16], ['Martine', 'F', 16], ['Françoise', 'F', 14],
  ['Camille', 'F', 18], ['Laura', 'F', 16], ['Sarah', 'F', 16], ['Pauline', 'F', 16], ['Manon', 'F', 14],
  ['Élodie', 'F', 18], ['Audrey', 'F', 16], ['Mélanie', 'F', 18], ['Virginie', 'F', 16], ['Karine', 'F', 16],
  ['Patricia', 'F', 14], ['Nicole', 'F', 10], ['Christelle', 'F', 14], ['Delphine', 'F', 16], ['Hélène', 'F', 14],
  ['Claire', 'F', 14], ['Agnès', 'F', 10], ['Corinne', 'F', 14], ['Florence', 'F', 12], ['Marion', 'F', 14],
  ['Charlotte', 'F', 12], ['Lucie', 'F', 12], ['Amandine', 'F', 12], ['Jessica', 'F', 10], ['Vanessa', 'F', 10],
  ['Chloé', 'F', 10], ['Léa', 'F', 10], ['Marine', 'F', 12], ['Mathilde', 'F', 10], ['Margaux', 'F', 8],
  ['Océane', 'F', 8], ['Inès', 'F', 8], ['Justine', 'F', 10], ['Anaïs', 'F', 10], ['Clémence', 'F', 8],
  ['Élise', 'F', 8], ['Jeanne', 'F', 6], ['Alice', 'F', 8], ['Louise', 'F', 6], ['Brigitte', 'F', 10],
  ['Monique', 'F', 6], ['Chantal', 'F', 8], ['Pascale', 'F', 8], ['Béatrice', 'F', 8], ['Fabienne', 'F', 8],
  ['Muriel', 'F', 8], ['Myriam', 'F', 8], ['Maria', 'F', 8], ['Fatima', 'F', 8], ['Samia', 'F', 6],
  ['Nadia', 'F', 8], ['Leïla', 'F', 6], ['Emma', 'F', 8], ['Anne-Sophie', 'F', 6], ['Marie-Claire', 'F', 4],
  ['Gaëlle', 'F', 8], ['Solène', 'F', 6], ['Noémie', 'F', 8], ['Laëtitia', 'F', 10], ['Morgane', 'F', 8],
  ['Jean', 'M', 10], ['Philippe', 'M', 10], ['Michel', 'M', 8], ['Alain', 'M', 6], ['Patrick', 'M', 8],
  ['Nicolas', 'M', 10], ['Christophe', 'M', 10], ['Pierre', 'M', 8], ['Christian', 'M', 6], ['Éric', 'M', 8],
  ['Frédéric', 'M', 8], ['Laurent', 'M', 8], ['Stéphane', 'M', 8], ['David', 'M', 8], ['Pascal', 'M', 6],
  ['Daniel', 'M', 5], ['Sébastien', 'M', 8], ['Julien', 'M', 8], ['Thierry', 'M', 6], ['Olivier', 'M', 8],
  ['Thomas', 'M', 8], ['Alexandre', 'M', 6], ['Didier', 'M', 5], ['Vincent', 'M', 6], ['François', 'M', 6],
  ['Bruno', 'M', 5], ['Guillaume', 'M', 6], ['Jérôme', 'M', 6], ['Marc', 'M', 6], ['Maxime', 'M', 6],
  ['Romain', 'M', 6], ['Antoine', 'M', 5], ['Franck', 'M', 5], ['Jean-Pierre', 'M', 4], ['Anthony', 'M', 5],
  ['Kévin', 'M', 5], ['Cédric', 'M', 5], ['Mathieu', 'M', 5], ['Yannick', 'M', 4], ['Hervé', 'M', 4],
  ['Fabrice', 'M', 4], ['Benjamin', 'M', 5], ['Lucas', 'M', 4], ['Hugo', 'M', 4], ['Quentin', 'M', 4],
  ['Florian', 'M', 4], ['Arnaud', 'M', 4], ['Damien', 'M', 4], ['Mohamed', 'M', 5], ['Karim', 'M', 4],
  ['Mehdi', 'M', 3], ['Loïc', 'M', 4], ['Gaël', 'M', 3], ['Baptiste', 'M', 3], ['Clément', 'M', 4],
];

/** [last name, weight]: the most frequent French surnames first, and the variety of a national workforce. */
export const BENCH_LAST_NAMES: readonly (readonly [string, number])[] = [
  ['Martin', 60], ['Bernard', 30], ['Thomas', 28], ['Petit', 26], ['Robert', 26], ['Richard', 25], ['Durand', 24],
  ['Dubois', 24], ['Moreau', 23], ['Laurent', 22], ['Simon', 22], ['Michel', 22], ['Lefèvre', 20], ['Leroy', 20],
  ['Roux', 19], ['David', 19], ['Bertrand', 18], ['Morel', 18], ['Fournier', 18], ['Girard', 17], ['Bonnet', 17],
  ['Dupont', 17], ['Lambert', 16], ['Fontaine', 16], ['Rousseau', 16], ['Vincent', 15], ['Muller', 15],
  ['Faure', 15], ['André', 15], ['Mercier', 15], ['Blanc', 14], ['Guérin', 14], ['Boyer', 14], ['Garnier', 14],
  ['Chevalier', 14], ['François', 13], ['Legrand', 13], ['Gauthier', 13], ['Garcia', 13], ['Perrin', 13],
  ['Robin', 12], ['Clément', 12], ['Morin', 12], ['Nicolas', 12], ['Henry', 12], ['Roussel', 12], ['Mathieu', 11],
  ['Gautier', 11], ['Masson', 11], ['Marchand', 11], ['Duval', 11], ['Denis', 11], ['Dumont', 11], ['Marie', 11],
  ['Lemaire', 10], ['Noël', 10], ['Meyer', 10], ['Dufour', 10], ['Meunier', 10], ['Brun', 10], ['Blanchard', 10],
  ['Giraud', 10], ['Joly', 10], ['Rivière', 10], ['Lucas', 10], ['Brunet', 10], ['Gaillard', 9], ['Barbier', 9],
  ['Arnaud', 9], ['Martinez', 9], ['Gérard', 9], ['Roche', 9], ['Renard', 9], ['Schmitt', 9], ['Roy', 9],
  ['Leroux', 9], ['Colin', 9], ['Vidal', 9], ['Caron', 9], ['Picard', 9], ['Roger', 8], ['Fabre', 8], ['Aubert', 8],
  ['Lemoine', 8], ['Renaud', 8], ['Dumas', 8], ['Lacroix', 8], ['Olivier', 8], ['Philippe', 8], ['Bourgeois', 8],
  ['Pierre', 8], ['Benoît', 8], ['Rey', 8], ['Leclerc', 8], ['Payet', 8], ['Rolland', 8], ['Leclercq', 7],
  ['Guillaume', 7], ['Lecomte', 7], ['Lopez', 7], ['Jean', 7], ['Dupuy', 7], ['Guillot', 7], ['Hubert', 7],
  ['Berger', 7], ['Carpentier', 7], ['Sanchez', 7], ['Dupuis', 7], ['Moulin', 7], ['Louis', 7], ['Deschamps', 7],
  ['Huet', 7], ['Vasseur', 7], ['Perez', 7], ['Boucher', 6], ['Fleury', 6], ['Royer', 6], ['Klein', 6],
  ['Jacquet', 6], ['Adam', 6], ['Paris', 6], ['Poirier', 6], ['Marty', 6], ['Aubry', 6], ['Guyot', 6], ['Carré', 6],
  ['Charles', 6], ['Renault', 6], ['Charpentier', 6], ['Ménard', 6], ['Maillard', 6], ['Baron', 6], ['Bertin', 6],
  ['Bailly', 6], ['Hervé', 6], ['Schneider', 6], ['Fernandez', 6], ['Le Gall', 6], ['Collet', 5], ['Léger', 5],
  ['Bouvier', 5], ['Julien', 5], ['Prévost', 5], ['Millet', 5], ['Perrot', 5], ['Daniel', 5], ['Le Roux', 5],
  ['Cousin', 5], ['Germain', 5], ['Breton', 5], ['Besson', 5], ['Langlois', 5], ['Rémy', 5], ['Le Goff', 5],
  ['Pelletier', 5], ['Lévêque', 5], ['Perrier', 5], ['Leblanc', 5], ['Barré', 5], ['Lebrun', 5], ['Marchal', 5],
  ['Weber', 5], ['Mallet', 5], ['Hamon', 5], ['Boulanger', 5], ['Jacob', 5], ['Monnier', 5], ['Michaud', 5],
  ['Rodriguez', 5], ['Guichard', 5], ['Gillet', 5], ['Étienne', 5], ['Grondin', 5], ['Poulain', 5], ['Tessier', 5],
  ['Chevallier', 5], ['Collin', 5], ['Chauvin', 5], ['Da Silva', 5], ['Bouchet', 5], ['Gay', 5], ['Lemaître', 5],
  ['Bénard', 5], ['Maréchal', 5], ['Humbert', 5], ['Reynaud', 5], ['Antoine', 5], ['Hoarau', 5], ['Perret', 5],
  ['Barthélémy', 5], ['Cordier', 5], ['Pichon', 5], ['Lejeune', 5], ['Gilbert', 5], ['Lamy', 5], ['Delaunay', 5],
  ['Pasquier', 5], ['Carlier', 5], ['Laporte', 5], ['Nguyen', 5], ['Benali', 4], ['Haddad', 4], ["N'Diaye", 4],
  ['Diallo', 4], ['Ferreira', 4], ['Dos Santos', 4], ['Traoré', 4], ['Benoit', 4], ['Kerouédan', 3], ['Texier', 4],
  ['Petitjean', 4], ['Saint-Martin', 3], ["D'Almeida", 3], ['Villeneuve', 4], ['Béranger', 3], ['Hébert', 4],
  ['Dupré', 4], ['Lefebvre', 10], ['Mallard', 3], ['Tanguy', 3], ['Le Bihan', 3], ['Kervella', 2], ['Ollivier', 3],
];

/** [kind of employer, short form for mail domains, weight]. */
export const EMPLOYER_KINDS: readonly (readonly [string, string, number])[] = [
  ['EHPAD', 'ehpad', 18], ['Clinique', 'clinique', 8], ['Centre hospitalier', 'ch', 4], ['Polyclinique', 'polyclinique', 3],
  ['Hôpital privé', 'hp', 2], ['SSIAD', 'ssiad', 8], ['Service d’aide à domicile', 'saad', 8], ['IME', 'ime', 5],
  ['ESAT', 'esat', 5], ['Foyer d’accueil médicalisé', 'fam', 4], ['Maison d’accueil spécialisée', 'mas', 3],
  ['Centre de rééducation', 'reeducation', 2], ['Centre de santé', 'centre-sante', 6], ['Maison de santé', 'msp', 6],
  ['Cabinet infirmier', 'cabinet-infirmier', 8], ['Laboratoire d’analyses médicales', 'labo', 3], ['Pharmacie', 'pharmacie', 10],
  ['Centre dentaire', 'centre-dentaire', 3], ['Association', 'asso', 8], ['Fondation', 'fondation', 2], ['SESSAD', 'sessad', 3],
  ['Centre médico-psychologique', 'cmp', 2], ['Résidence autonomie', 'residence', 4], ['Centre de dialyse', 'dialyse', 1],
  ['Hospitalisation à domicile', 'had', 1],
];

/** The name that follows the kind ('EHPAD Les Oliviers', 'Clinique Saint-Joseph'). */
export const EMPLOYER_NAMES: readonly string[] = [
  'Les Tilleuls', 'Saint-Joseph', 'Les Glycines', 'du Parc', 'Sainte-Marie', 'Les Oliviers', 'Pasteur', 'Jeanne d’Arc',
  'Les Peupliers', 'Bellevue', 'Les Lilas', 'du Lac', 'Saint-Martin', 'Les Cèdres', 'Les Magnolias', 'Les Acacias',
  'La Roseraie', 'Le Clos Fleuri', 'Les Jardins', 'Beau Site', 'Les Charmilles', 'Le Bon Sauveur', 'Sainte-Anne',
  'Saint-Vincent', 'Les Sources', 'Les Coteaux', 'de l’Estuaire', 'du Vallon', 'Les Mimosas', 'Arc-en-Ciel',
  'Les Hortensias', 'Les Marronniers', 'Le Moulin Vert', 'Les Bruyères', 'La Colline', 'Les Iris', 'Le Belvédère',
  'Les Platanes', 'Les Chênes', 'La Source', 'Notre-Dame', 'Saint-François', 'Sainte-Thérèse', 'Les Églantines',
  'Les Genêts', 'Le Petit Bois', 'Les Capucines', 'Les Violettes', 'La Chênaie', 'Les Érables', 'Les Myosotis',
  'Émile Roux', 'Marie Curie', 'Victor Hugo', 'Jean Jaurès', 'Louis Pasteur', 'Ambroise Paré', 'Les Mouettes',
  'Horizon', 'L’Escale', 'Les Hirondelles', 'Les Cigales', 'Le Phare', 'Les Alizés', 'Mont-Blanc', 'Les Vignes',
  'La Garenne', 'Les Saules', 'Les Pins', 'Du Littoral', 'Les Noisetiers', 'Les Camélias', 'Le Verger',
];

/** [personal mail provider, weight]. */
export const PERSONAL_DOMAINS: readonly (readonly [string, number])[] = [
  ['gmail.com', 30], ['orange.fr', 18], ['free.fr', 10], ['sfr.fr', 7], ['laposte.net', 7], ['hotmail.fr', 8],
  ['wanadoo.fr', 6], ['yahoo.fr', 6], ['outlook.fr', 5], ['icloud.com', 3],
];

/** External roles in the order the generator cycles through them, and how often each comes first. */
export const EXTERNAL_ROLE_CYCLE: readonly (readonly [string, number])[] = [
  ['GESTIONNAIRE', 20], ['RESSOURCE_HUMAINE', 20], ['COMPTABLE', 12], ['GESTIONNAIRE_ALTERNANCE', 12],
  ['DECIDEUR_SIGNATAIRE', 8], ['ADHESION', 8], ['CE_CSE_SIEGE', 5], ['CABINET_COMPTABLE', 5],
];

/** The back-office staff of the funding body (besides the demo accounts). */
export const BACK_OFFICE_STAFF = 20;
export const BACK_OFFICE_DOMAIN = 'opco-sante.fr';
