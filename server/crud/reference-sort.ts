/**
 * A list sorted by a reference column: by the label of the record each row names (in the user's
 * language), then the referenced id, then the row's id — rows without a reference last in
 * ascending order and first in descending order (PostgreSQL's nulls), as a plain
 * `order by <label subquery>, column, id` would. That plain form labels every row and sorts them
 * all (2–4 s at 100,000 customers sorted by consultant); here:
 *
 * - rows with a reference, when they are few (≤ FEW_REFERENCING after the list's conditions,
 *   counted from the `(column, id)` index): those rows alone, labelled and sorted;
 * - else the referenced records are walked in label order (a small table sorted, or a large one
 *   read from its label index, server/db/label-sql.ts) and, for each, its rows in id order from
 *   the `(column, id)` index (a lateral join), until the page is full;
 * - rows without a reference in id order from the same index (`column is null`).
 *
 * The two parts are read one after the other; the rows skipped over in the first are counted only
 * when a page begins beyond it.
 */
import { type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { FieldModel, ResourceModel } from '../../src/schema/model.ts';
import type { ResourceDB, ResourceRow, ResourceTables } from '../db/resource.ts';
import { countAtMost } from '../http/lists.ts';

/** Up to this many rows with a reference are sorted directly; more are read group by group. */
export const FEW_REFERENCING = 1_000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the list's query, any columns
type ListFrom = SelectQueryBuilder<ResourceTables, string, any>;

export interface ReferenceSort {
  db: ResourceDB;
  model: ResourceModel;
  field: FieldModel;
  target: ResourceModel;
  /** The label of the referenced rows, alias `gscrm_target`, as sort key (collated). */
  targetLabel: RawBuilder<string>;
  /** The label of the record a row names (correlated subquery), as sort key. */
  rowLabel: RawBuilder<string>;
  direction: 'asc' | 'desc';
  /** The list's table with its conditions (scope, filters, search), nothing selected. */
  matching: () => ListFrom;
}

/** `limit` rows from `offset` of a list sorted by a reference column (see above). */
export async function referenceSortedRows(
  sort: ReferenceSort,
  limit: number,
  offset: number,
): Promise<ResourceRow[]> {
  const { db, model, field, direction, matching } = sort;
  const column = `${model.table}.${field.column}`;
  const id = `${model.table}.id`;
  const referencing = () => matching().where(sql.ref(column), 'is not', null);
  const unreferenced = () => matching().where(sql.ref(column), 'is', null);

  const referencingCount = await countAtMost(db, referencing())(FEW_REFERENCING + 1);
  const few = referencingCount <= FEW_REFERENCING;

  const withReference = async (count: number, skip: number): Promise<ResourceRow[]> => {
    if (few) {
      return referencing()
        .selectAll(model.table)
        .orderBy(sort.rowLabel, direction)
        .orderBy(sql.ref(column), direction)
        .orderBy(sql.ref(id), direction)
        .limit(count)
        .offset(skip)
        .execute();
    }
    const groups = db
      .selectFrom(`${sort.target.table} as gscrm_target`)
      .select([sql.ref('gscrm_target.id').as('gscrm_ref'), sort.targetLabel.as('gscrm_label')])
      .orderBy('gscrm_label', direction)
      .orderBy('gscrm_ref', direction)
      .as('gscrm_groups');
    return db
      .selectFrom(groups)
      .innerJoinLateral(
        () =>
          referencing()
            .selectAll(model.table)
            .where(sql.ref(column), '=', sql.ref('gscrm_groups.gscrm_ref'))
            .orderBy(sql.ref(id), direction)
            .limit(skip + count)
            .as('gscrm_rows'),
        (join) => join.onTrue(),
      )
      .selectAll('gscrm_rows')
      .orderBy('gscrm_groups.gscrm_label', direction)
      .orderBy('gscrm_groups.gscrm_ref', direction)
      .orderBy('gscrm_rows.id', direction)
      .limit(count)
      .offset(skip)
      .execute();
  };
  const withoutReference = (count: number, skip: number): Promise<ResourceRow[]> =>
    unreferenced()
      .selectAll(model.table)
      .orderBy(sql.ref(id), direction)
      .limit(count)
      .offset(skip)
      .execute();
  const countOf = (from: ListFrom) => countAtMost(db, from)();

  const [first, second, countFirst] =
    direction === 'asc'
      ? [
          withReference,
          withoutReference,
          async () => (few ? referencingCount : countOf(referencing())),
        ]
      : [withoutReference, withReference, () => countOf(unreferenced())];
  const rows = await first(limit, offset);
  if (rows.length >= limit) return rows;
  // The page reaches past the first part: where in the second part does it begin?
  const skip = rows.length > 0 || offset === 0 ? 0 : Math.max(0, offset - (await countFirst()));
  return [...rows, ...(await second(limit - rows.length, skip))];
}
