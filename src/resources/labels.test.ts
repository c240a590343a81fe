/**
 * The text that stands for a record in the browser (src/resources/labels.ts): the representation
 * templates of the customers schema.
 */
import { describe, expect, it } from 'vitest';
import { loadResourceModels } from '../../server/schemas.ts';
import { representRecord } from './labels.ts';

const customers = loadResourceModels().find((model) => model.name === 'customers');
if (!customers) throw new Error('no customers schema');

describe('representation', () => {
  it('shows a company by its organization and a person by first and last name', () => {
    expect(
      representRecord(customers, {
        id: 1,
        organization: 'Beispiel AG',
        firstName: 'Anna',
        lastName: 'Muster',
      }),
    ).toBe('Beispiel AG');
    expect(
      representRecord(customers, {
        id: 2,
        organization: null,
        firstName: 'Anna',
        lastName: 'Muster',
      }),
    ).toBe('Anna Muster');
    expect(
      representRecord(customers, { id: 3, organization: '', firstName: '', lastName: 'Muster' }),
    ).toBe('Muster');
  });
});
