import { describe, expect, it } from 'vitest';
import { roleDisplayLabel } from '../../src/domain/roles';

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
