import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../../server/identity/passwords.ts';

describe('password hashes', () => {
  it('writes scrypt$N$r$p$salt$hash with a fresh salt each time', async () => {
    const first = await hashPassword('Demo-Portail-2026');
    const second = await hashPassword('Demo-Portail-2026');
    expect(first).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/]+=*\$[A-Za-z0-9+/]+=*$/);
    expect(first).not.toBe(second);
  });

  it('verifies the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('Demo-Portail-2026');
    expect(await verifyPassword('Demo-Portail-2026', stored)).toBe(true);
    expect(await verifyPassword('Demo-Portail-2027', stored)).toBe(false);
  });

  it('verifies with the parameters stored in the hash', async () => {
    const stored = await hashPassword('secret', { N: 1024, r: 8, p: 1 });
    expect(stored.startsWith('scrypt$1024$8$1$')).toBe(true);
    expect(await verifyPassword('secret', stored)).toBe(true);
  });

  it('treats composed and decomposed accents as the same password', async () => {
    const stored = await hashPassword('Été-2026'.normalize('NFC'));
    expect(await verifyPassword('Été-2026'.normalize('NFD'), stored)).toBe(true);
  });

  it('refuses malformed hashes and extreme cost parameters instead of throwing', async () => {
    for (const stored of ['', 'plain', 'scrypt$1$8$1$c2FsdA==$aGFzaGhhc2hoYXNoaGFzaA==', 'scrypt$4194304$8$1$c2FsdA==$aGFzaGhhc2hoYXNoaGFzaA==', 'bcrypt$x']) {
      expect(await verifyPassword('x', stored)).toBe(false);
    }
  });
});
