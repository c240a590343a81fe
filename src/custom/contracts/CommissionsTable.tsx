/**
 * A contract's commissions (issue 17): what its people earn from it, as the commission engine
 * keeps them on the contract (server/commissions/engine.ts `peopleSummary`) — by user, or by
 * sub-broker, and type, in CHF. Read-only wherever it shows (the contract's page and its form):
 * the engine fills it from the commission rules when the contract is saved.
 */
import { Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { RecordContextProvider, ReferenceField, useTranslate } from 'react-admin';
import { formatChf } from '../../i18n/format.ts';
import { enumKey } from '../../schema/labels.ts';
import type { Contract } from './model.ts';

type Line = NonNullable<Contract['commissions']>[number];

/** The user's or the sub-broker's name (their label in the user's language). */
function Earner({ line }: { line: Line }) {
  const [source, reference, id] = line.userId
    ? ['userId', 'users', line.userId]
    : ['subBrokerId', 'sub-brokers', line.subBrokerId];
  if (!id) return null;
  return (
    <RecordContextProvider value={{ id: 0, [source]: id }}>
      <ReferenceField source={source} reference={reference} link={false} />
    </RecordContextProvider>
  );
}

export function CommissionsTable({ lines }: { lines: Contract['commissions'] }) {
  const translate = useTranslate();
  if (!lines || lines.length === 0)
    return (
      <Typography variant="body2" color="text.secondary" data-testid="commissions-none">
        {translate('app.contracts.commissionsNone')}
      </Typography>
    );
  return (
    <Table size="small" data-testid="commissions-table">
      <TableHead>
        <TableRow>
          <TableCell>{translate('app.contracts.fields.user')}</TableCell>
          <TableCell>{translate('app.contracts.fields.commissionType')}</TableCell>
          <TableCell align="right">{translate('app.contracts.fields.comission')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {lines.map((line, index) => (
          <TableRow key={index}>
            <TableCell>
              <Earner line={line} />
            </TableCell>
            <TableCell>{translate(enumKey('commissionLineType', line.type))}</TableCell>
            <TableCell align="right">{formatChf(line.comission)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
