import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, waitFor } from '@testing-library/react';
import { useDocumentTitle } from '../../src/lib/use-document-title';

function Screen({ title }: { title: string }) {
  useDocumentTitle(title);
  return null;
}

beforeEach(() => {
  document.head.innerHTML = '<title>Portail Habilitations</title>';
});
afterEach(cleanup);

describe('useDocumentTitle', () => {
  it('names the browser tab after the screen', () => {
    render(<Screen title="Gestion des utilisateurs" />);
    expect(document.title).toBe('Gestion des utilisateurs · Portail Habilitations');
  });

  it("puts the screen's title back when a library restores an older one (MSAL after a redirect)", async () => {
    render(<Screen title="Connexion en cours..." />);
    document.title = 'Portail Habilitations';
    await waitFor(() => expect(document.title).toBe('Connexion en cours... · Portail Habilitations'));
  });

  it('lets the screen shown last keep the tab, without a tug of war with one still mounted', async () => {
    const first = render(<Screen title="Accueil" />);
    render(<Screen title="Workflows" />);
    document.title = 'autre chose';
    await waitFor(() => expect(document.title).toBe('Workflows · Portail Habilitations'));
    first.unmount();
    expect(document.title).toBe('Workflows · Portail Habilitations');
  });

  it('leaves the title alone once the screen is gone', async () => {
    const view = render(<Screen title="Accueil" />);
    view.unmount();
    document.title = 'Déconnexion';
    await Promise.resolve();
    expect(document.title).toBe('Déconnexion');
  });
});
