import { describe, expect, it } from 'vitest';
import { LEAD_SOURCE_MANAGER, leadSourceVisible } from '../../src/schema/leads.ts';
import { getModel } from '../../src/resources/registry.ts';

describe('leadSourceVisible', () => {
  const callCentre = { role: 'BACKOFFICE-CALLCENTER', permissions: ['contract-simple-export'] };
  const manager = { role: 'BACKOFFICE', permissions: [LEAD_SOURCE_MANAGER] };

  it('is the permission that edits lead sources', () => {
    expect(getModel('lead-sources').permissions.update).toBe(LEAD_SOURCE_MANAGER);
  });

  it.each([
    ['a role the source names', callCentre, ['BACKOFFICE-CALLCENTER'], true],
    ['a role the source leaves out', callCentre, ['ADMIN', 'BACKOFFICE'], false],
    ['a source naming no role', callCentre, [], false],
    ['a source with no list', callCentre, null, false],
    ['a manager, role left out', manager, ['CONSULTANT'], true],
    ['a manager, no role named', manager, [], true],
  ])('%s', (_, viewer, roles, expected) => {
    expect(leadSourceVisible(viewer, roles)).toBe(expected);
  });
});

describe('the board labels', () => {
  it.each(['de', 'en', 'fr', 'it'])(
    'never names a close reason like a column (%s)',
    async (language) => {
      const { default: locale } = (await import(`../../locales/${language}.json`)) as {
        default: { enums: Record<string, Record<string, string>> };
      };
      const columns = Object.values(locale.enums.leadStatus ?? {});
      const reasons = Object.values(locale.enums.leadCloseStatus ?? {});
      expect(columns).toHaveLength(4);
      expect(reasons).toHaveLength(6);
      expect(reasons.filter((reason) => columns.includes(reason))).toEqual([]);
    },
  );
});
