// The pure rules of a person's data on request (issue 23): no link of an e-mail leaves, and the file's name.
import { describe, expect, it } from 'vitest';
import { LINK_REMOVED, personalDataFileName, withoutLinks } from '../../server/features/users/users-personal-data.model.ts';

describe("a person's data on request", () => {
  it('replaces every link of an e-mail, and any token left over, by [lien retiré]', () => {
    const body = [
      'Pour y accéder la première fois, ouvrez le lien ci-dessous :',
      'https://portail.exemple.fr/compte/activer?token=abc.DEF-123_x&x=1',
      'Ou confirmez ici : http://localhost:8443/compte/confirmer-email?token=zzz.',
      'Voir www.opco-sante.fr/aide et le code token=secret123 reçu.',
    ].join('\n');
    const text = withoutLinks(body);
    expect(text).toBe(
      [
        'Pour y accéder la première fois, ouvrez le lien ci-dessous :',
        LINK_REMOVED,
        `Ou confirmez ici : ${LINK_REMOVED}`,
        `Voir ${LINK_REMOVED} et le code ${LINK_REMOVED} reçu.`,
      ].join('\n'),
    );
    expect(text).not.toMatch(/abc|zzz|secret123|https?:/);
  });

  it('names the file after the person, in letters, digits and dashes, and the day in Paris', () => {
    const night = new Date('2026-11-27T23:30:00Z');
    expect(personalDataFileName({ first_name: 'Zoé', last_name: 'Bonnet' }, 'html', night)).toBe('donnees-personnelles-bonnet-zoe-2026-11-28.html');
    expect(personalDataFileName({ first_name: 'Marc', last_name: "L'Hôte" }, 'json', night)).toBe('donnees-personnelles-l-hote-marc-2026-11-28.json');
    expect(personalDataFileName({ first_name: '"/>', last_name: '<' }, 'json', night)).toBe('donnees-personnelles-personne-2026-11-28.json');
  });
});
