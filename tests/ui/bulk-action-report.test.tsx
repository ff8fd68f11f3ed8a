// The report of an action on many users counts every refusal from the job's totals, while the server answers only
// the first 100 of them (REFUSALS_SHOWN): a selection of thousands all refused still reads right.
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BulkActionDialog } from '../../src/ui/users/bulk-action-dialog';

const refusal = (i: number) => ({ userId: `u${i}`, name: `Personne ${i}`, email: `p${i}@exemple.fr`, reason: 'Ce compte est déjà actif.' });
const noop = () => undefined;

describe('the report of an action on many users', () => {
  it('counts the refusals beyond the first 100 the server lists', () => {
    const job = { total: 250, processed: 250, succeeded: 100, refusals: Array.from({ length: 100 }, (_, i) => refusal(i)) };
    render(<BulkActionDialog phase="report" action="reactivate" count={250} job={job} failure={null} onConfirm={noop} onCancel={noop} onDismiss={noop} onRetry={noop} />);
    expect(screen.getByRole('heading', { name: '150 refus' })).toBeTruthy();
    expect(screen.getAllByRole('listitem')).toHaveLength(100);
    expect(screen.getByText('… et 50 autre(s) refus.')).toBeTruthy();
  });
});
