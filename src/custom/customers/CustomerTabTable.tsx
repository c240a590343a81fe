/**
 * The frame of a customer tab that lists records (appointments, reminders, offers, comparisons):
 * the title with the count and the tab's actions, then the table of its rows — or a sentence when
 * there are none. The tab gives the header cells and the rows; what follows the table (dialogs,
 * another list) goes in `after`.
 */
import { Box, Stack, Table, TableBody, TableHead, TableRow, Typography } from '@mui/material';
import type { ReactNode } from 'react';

export function CustomerTabTable({
  testId,
  title,
  total,
  actions,
  isPending,
  empty,
  emptyText,
  head,
  children,
  after,
}: {
  testId: string;
  /** The tab's title (translated); the count follows in brackets once known. */
  title: string;
  total: number | undefined;
  actions?: ReactNode;
  isPending: boolean;
  /** No rows (once loaded): `emptyText` instead of the table. */
  empty: boolean;
  emptyText: string;
  /** The header cells. */
  head: ReactNode;
  /** The rows. */
  children: ReactNode;
  after?: ReactNode;
}) {
  return (
    <Box data-testid={testId}>
      <Stack
        direction="row"
        useFlexGap
        spacing={1}
        sx={{ alignItems: 'center', mb: 1, flexWrap: 'wrap' }}
      >
        <Typography variant="subtitle1" sx={{ flex: 1 }}>
          {title} {total !== undefined ? `(${total})` : ''}
        </Typography>
        {actions}
      </Stack>
      {!isPending && empty ? (
        <Typography variant="body2" color="text.secondary">
          {emptyText}
        </Typography>
      ) : (
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small">
            <TableHead>
              <TableRow>{head}</TableRow>
            </TableHead>
            <TableBody>{children}</TableBody>
          </Table>
        </Box>
      )}
      {after}
    </Box>
  );
}
