import { describe, expect, it } from 'vitest';
import { PAGE_TOTAL, type PageSource, pageAnswer, takeCount } from './lists.ts';

/** A list of `total` numbered rows, recording which statements a page answer sent. */
function source(total: number, counted: boolean) {
  const sent: string[] = [];
  const all = Array.from({ length: total }, (_, index) => ({ id: index + 1 }));
  const page: PageSource<{ id: number }> = {
    rows: async (limit, offset) => {
      sent.push('rows');
      return all.slice(offset, offset + limit);
    },
    count: async (cap) => {
      sent.push('count');
      return Math.min(total, cap);
    },
    cap: 200,
  };
  if (counted) {
    page.rowsCounted = async (limit, offset, cap) => {
      sent.push('rows+count');
      return takeCount(
        all
          .slice(offset, offset + limit)
          .map((row) => ({ ...row, [PAGE_TOTAL]: Math.min(total, cap) })),
      );
    };
  }
  return { page, sent };
}

describe('pageAnswer with the count in the page statement (rowsCounted)', () => {
  it('sends one statement and answers the same as rows + count', async () => {
    for (const total of [0, 10, 26, 150, 5000]) {
      for (const pageNumber of [1, 2, 3]) {
        const query = { page: pageNumber, per_page: 25 };
        const separate = source(total, false);
        const together = source(total, true);
        const expected = await pageAnswer(query, separate.page);
        const answer = await pageAnswer(query, together.page);
        expect(answer, `${total} rows, page ${pageNumber}`).toEqual(expected);
        // The count column never reaches the answer.
        for (const row of answer.data) expect(Object.keys(row)).toEqual(['id']);
        // A page past the end brings no row to carry the count: counted apart, as before.
        const beyond = total <= (pageNumber - 1) * 25 && pageNumber > 1;
        expect(together.sent).toEqual(beyond ? ['rows+count', 'count'] : ['rows+count']);
      }
    }
  });
});
