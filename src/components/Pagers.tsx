/**
 * Every pager of the app in the user's language with Swiss numbers ("1'001-1'025 von 1'234"):
 * react-admin's lists (`ListPagination`, the default of every `<List>` through the theme,
 * src/theme.ts) and the hand-written tables (`TablePager`, MUI's TablePagination, whose own
 * default reads "0–0 of 0" in English). Texts are react-admin's `ra.navigation.*` keys, and
 * `app.pager.*` for a list too long to count ("1-25 of about 120'000", partial pagination).
 */
import {
  TablePagination,
  type TablePaginationProps,
  type Theme,
  Toolbar,
  useMediaQuery,
} from '@mui/material';
import type { TablePaginationActionsProps } from '@mui/material/TablePaginationActions';
import { useCallback } from 'react';
import { PaginationActions, useTranslate } from 'react-admin';
import type { EstimatedTotal } from '../dataProvider/index.ts';
import { formatNumber } from '../i18n/format.ts';
import { useDeferredListContext } from './DeferredList.tsx';

type PageButton = 'first' | 'last' | 'next' | 'previous';

/**
 * The labels MUI's pager reads, translated, its numbers in the Swiss style. `estimate`: the total
 * of a list too long to count (src/dataProvider/index.ts): "1-25 of about 120'000" or "1-25 of
 * more than 10'000".
 */
export function usePagerLabels(hasNextPage?: boolean, estimate?: EstimatedTotal) {
  const translate = useTranslate();
  const labelDisplayedRows = useCallback(
    ({ from, to, count }: { from: number; to: number; count: number }) => {
      const range = { offsetBegin: formatNumber(from), offsetEnd: formatNumber(to) };
      if (count === -1 && estimate && (hasNextPage || estimate.totalEstimate === 'about')) {
        return translate(
          estimate.totalEstimate === 'about' ? 'app.pager.about' : 'app.pager.moreThan',
          { ...range, total: formatNumber(Math.max(estimate.total, to)) },
        );
      }
      return count === -1 && hasNextPage
        ? translate('ra.navigation.partial_page_range_info', range)
        : translate('ra.navigation.page_range_info', {
            ...range,
            total: formatNumber(count === -1 ? to : count),
          });
    },
    [translate, hasNextPage, estimate],
  );
  const getItemAriaLabel = useCallback(
    (type: PageButton) => translate(`ra.navigation.${type}`),
    [translate],
  );
  return {
    labelDisplayedRows,
    getItemAriaLabel,
    labelRowsPerPage: translate('ra.navigation.page_rows_per_page'),
  };
}

/** The estimated total a list's data provider answered instead of an exact one, if any. */
function estimatedTotal(meta: unknown): EstimatedTotal | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const { total, totalEstimate } = meta as Partial<EstimatedTotal>;
  if (typeof total !== 'number') return undefined;
  return totalEstimate === 'about' || totalEstimate === 'more_than'
    ? { total, totalEstimate }
    : undefined;
}

/** react-admin's page buttons (1 2 3 … 9) inside MUI's pager. */
function PageButtons(props: TablePaginationActionsProps) {
  const { page, rowsPerPage, count, onPageChange } = props;
  return (
    <PaginationActions
      page={page}
      rowsPerPage={rowsPerPage}
      count={count}
      onPageChange={(_event, next) => onPageChange(null, next)}
    />
  );
}

/**
 * react-admin's list pager (the default of every list, src/theme.ts) with the app's labels: the
 * same behaviour as react-admin's `<Pagination>` (nothing while empty, partial totals, page
 * buttons, no page size choice on small screens), which takes no label props of its own.
 */
export function ListPagination({
  rowsPerPageOptions = [5, 10, 25, 50],
}: {
  rowsPerPageOptions?: number[];
}) {
  // Deferred like the list's rows (./DeferredList.tsx): the pager changes with the table.
  const { isPending, hasNextPage, page, perPage, total, setPage, setPerPage, meta } =
    useDeferredListContext();
  const labels = usePagerLabels(hasNextPage, estimatedTotal(meta));
  const small = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'));
  if (isPending) return <Toolbar variant="dense" />;
  const pages = total != null ? Math.ceil(total / perPage) : undefined;
  if (total === 0 || page < 1 || (pages !== undefined && page > pages)) return null;
  return (
    <TablePagination
      component="span"
      count={total ?? -1}
      page={page - 1}
      rowsPerPage={perPage}
      rowsPerPageOptions={small ? [] : rowsPerPageOptions}
      onPageChange={(_event, next) => setPage(next + 1)}
      onRowsPerPageChange={(event) => setPerPage(Number(event.target.value))}
      ActionsComponent={total != null && !small ? PageButtons : undefined}
      slotProps={{ actions: { nextButton: { disabled: !hasNextPage } } }}
      {...labels}
    />
  );
}

/**
 * MUI's table pager for hand-written tables, with the app's labels. Shows nothing while the table
 * is empty (the table says so itself), as react-admin's pager does.
 */
export function TablePager(props: Omit<TablePaginationProps<'div'>, 'component'>) {
  const labels = usePagerLabels();
  if (props.count === 0) return null;
  return <TablePagination component="div" {...labels} {...props} />;
}
