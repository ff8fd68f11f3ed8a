import { describe, expect, it } from 'vitest';
import { roleDisplayLabel } from '../../rules/roles';

describe('roleDisplayLabel', () => {
  it('reads the quoted part in parentheses as the display label', () => {
    expect(roleDisplayLabel('Administrateur adhérent ("Admin Adhérent")')).toBe('Admin Adhérent');
  });
  it('accepts typographic quotes', () => {
    expect(roleDisplayLabel('Gestionnaire (« Gestion »)')).toBe('Gestion');
  });
  it('keeps a name without a quoted part', () => {
    expect(roleDisplayLabel('  Comptable ')).toBe('Comptable');
    expect(roleDisplayLabel('Cabinet comptable (externe)')).toBe('Cabinet comptable (externe)');
  });
});

import { roleTone } from '../../rules/roles';

describe('role badge colours', () => {
  it('gives each known code its colour, ORG_ADMIN the one of ADMIN_ADHERENT, and grey to any other', () => {
    expect(roleTone('ADMIN_ADHERENT')).toBe('purple');
    expect(roleTone('ORG_ADMIN')).toBe(roleTone('ADMIN_ADHERENT'));
    expect(roleTone('COMPTABLE')).not.toBe('grey');
    expect(roleTone('ROLE_INCONNU')).toBe('grey');
  });
});
