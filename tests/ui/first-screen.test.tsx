import { useLayoutEffect } from 'react';
import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';

// A fresh module per test: whether the page has drawn its first screen is the module's.
let FirstScreen: typeof import('../../src/ui/first-screen').FirstScreen;
beforeEach(async () => {
  vi.resetModules();
  ({ FirstScreen } = await import('../../src/ui/first-screen'));
});

function Committed({ name, log }: { name: string; log: string[] }) {
  useLayoutEffect(() => void log.push(name), [name, log]);
  return <p>{name}</p>;
}

describe('the first screen drawn in a render React may interrupt (issue 18)', () => {
  it('commits the fallback first, then the screen, on the page\'s first screen', async () => {
    const log: string[] = [];
    await act(async () => {
      render(
        <FirstScreen fallback={<Committed name="attente" log={log} />}>
          <Committed name="écran" log={log} />
        </FirstScreen>,
      );
    });
    expect(log).toEqual(['attente', 'écran']);
    expect(screen.getByText('écran')).toBeTruthy();
    expect(screen.queryByText('attente')).toBeNull();
  });

  it('draws a later screen at once, without its fallback', async () => {
    const log: string[] = [];
    const first = render(
      <FirstScreen fallback={<Committed name="attente" log={log} />}>
        <Committed name="premier" log={log} />
      </FirstScreen>,
    );
    await act(async () => {});
    first.unmount();
    log.length = 0;
    await act(async () => {
      render(
        <FirstScreen fallback={<Committed name="attente" log={log} />}>
          <Committed name="second" log={log} />
        </FirstScreen>,
      );
    });
    expect(log).toEqual(['second']);
  });
});
