import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { NotFoundPage } from '../../src/ui/not-found-page';

afterEach(cleanup);

describe('NotFoundPage', () => {
  it("shows the heading 'Oops! Page not found' as the page's only heading", () => {
    render(<NotFoundPage onHome={() => {}} />);
    expect(screen.getAllByRole('heading').map((h) => h.textContent)).toEqual(['Oops! Page not found']);
    expect(screen.getByRole('heading', { level: 1, name: 'Oops! Page not found' })).toBeTruthy();
  });

  it('calls onHome once when the link home is clicked', async () => {
    const onHome = vi.fn();
    render(<NotFoundPage onHome={onHome} />);
    const home = screen.getByRole('link', { name: "Retour à l'accueil" });
    expect(home.getAttribute('href')).toBe('/');
    await userEvent.click(home);
    expect(onHome).toHaveBeenCalledTimes(1);
  });

  it('keeps the browser from following the link itself', () => {
    const onHome = vi.fn();
    render(<NotFoundPage onHome={onHome} />);
    expect(fireEvent.click(screen.getByRole('link', { name: "Retour à l'accueil" }))).toBe(false);
    expect(onHome).toHaveBeenCalledTimes(1);
  });
});
