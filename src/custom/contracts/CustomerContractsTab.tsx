/**
 * The contracts tab of a customer: the household coverage (./HouseholdCoverage.tsx), then the
 * customer's closures and non-closures as compact lists linking to their pages (the first 100 of
 * each; when there are more, "Show all N" opens the contracts list filtered by the customer), with
 * "New contract" / "New non-closure" (admin area: creating is an admin page) opening the form with
 * the customer filled in.
 */
import AddIcon from '@mui/icons-material/Add';
import {
  Box,
  Chip,
  Link,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import {
  Button,
  ReferenceField,
  RecordContextProvider,
  useGetList,
  useLocale,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { formatChf, formatDate, formatNumber } from '../../i18n/format.ts';
import type { ApiRecord } from '../../resources/records.ts';
import { enumKey, fieldLabelKey } from '../../schema/labels.ts';
import { type Area, type ContractType, contractHref } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import { HouseholdCoverage } from './HouseholdCoverage.tsx';
import { MemberName } from './fields.tsx';
import type { Contract } from './model.ts';

/** How many contracts of a kind the tab shows; beyond, it links to the list. */
const TAB_ROWS = 100;

/** The contracts list of a kind (closures, non-closures) filtered by one customer. */
export function contractListOfCustomer(
  area: Area,
  contractType: ContractType,
  customerId: number,
): string | undefined {
  const list = contractHref(area, contractType, 'list');
  return list && `${list}?filter=${encodeURIComponent(JSON.stringify({ customerId }))}`;
}

function ContractsTable({
  customerId,
  contractType,
}: {
  customerId: number;
  contractType: ContractType;
}) {
  const translate = useTranslate();
  const locale = useLocale();
  const area = useArea();
  const navigate = useNavigate();
  const {
    data = [],
    total,
    isPending,
  } = useGetList<Contract>('contracts', {
    filter: { customerId, contractType },
    pagination: { page: 1, perPage: TAB_ROWS },
    sort: { field: 'startDate', order: 'DESC' },
  });
  const createPath = contractHref(area, contractType, 'create');
  // More than the tab shows: the list of this kind, filtered by the customer.
  const listPath =
    total !== undefined && total > data.length
      ? contractListOfCustomer(area, contractType, customerId)
      : undefined;
  const closure = contractType === 'closure';
  const heading = closure
    ? 'app.contracts.customerTab.closures'
    : 'app.contracts.customerTab.nonClosures';
  const column = (name: string) => translate(fieldLabelKey('contracts', name));
  return (
    <Box sx={{ mt: 3 }} data-testid={`customer-contracts-${contractType}`}>
      <Stack direction="row" sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="subtitle1" sx={{ flex: 1 }}>
          {translate(heading)} {total !== undefined ? `(${total})` : ''}
        </Typography>
        {createPath ? (
          <Button
            label={
              closure
                ? 'app.contracts.customerTab.newClosure'
                : 'app.contracts.customerTab.newNonClosure'
            }
            onClick={() => navigate(`${createPath}?customerId=${customerId}`)}
            data-testid={`customer-contract-new-${contractType}`}
          >
            <AddIcon />
          </Button>
        ) : null}
      </Stack>
      {!isPending && data.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {translate('app.contracts.customerTab.none')}
        </Typography>
      ) : (
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" sx={{ '& td.nowrap': { whiteSpace: 'nowrap' } }}>
            <TableHead>
              <TableRow>
                <TableCell>{column('contractNumber')}</TableCell>
                <TableCell>{translate('app.contracts.columns.insured')}</TableCell>
                <TableCell>{column('productId')}</TableCell>
                <TableCell>{column('companyId')}</TableCell>
                <TableCell>{closure ? column('status') : column('reason')}</TableCell>
                <TableCell>{column('startDate')}</TableCell>
                <TableCell>{column('endDate')}</TableCell>
                <TableCell align="right">{column('annualPremium')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.map((contract) => (
                <RecordContextProvider key={contract.id} value={contract}>
                  <TableRow hover>
                    <TableCell>
                      <Link
                        component={RouterLink}
                        to={contractHref(area, contractType, 'show', contract.id) ?? '#'}
                      >
                        {contract.contractNumber ?? `#${contract.id}`}
                      </Link>
                      {contract.protocolMissing ? (
                        <Chip
                          size="small"
                          color="warning"
                          sx={{ ml: 1 }}
                          label={translate('app.contracts.protocolMissing')}
                        />
                      ) : null}
                    </TableCell>
                    <TableCell>
                      {contract.householdMemberId ? (
                        <MemberName />
                      ) : (
                        translate('app.contracts.insuredIsCustomer')
                      )}
                    </TableCell>
                    <TableCell>
                      <ReferenceField source="productId" reference="products" link={false} />
                    </TableCell>
                    <TableCell>
                      {contract.companyId ? (
                        <ReferenceField source="companyId" reference="companies" link={false} />
                      ) : null}
                    </TableCell>
                    <TableCell>
                      {closure
                        ? contract.status
                          ? translate(enumKey('contractStatus', contract.status))
                          : null
                        : contract.reason
                          ? translate(enumKey('nonClosureReason', contract.reason))
                          : null}
                    </TableCell>
                    <TableCell className="nowrap">
                      {contract.startDate ? formatDate(contract.startDate, locale) : ''}
                    </TableCell>
                    <TableCell className="nowrap">
                      {contract.endDate ? formatDate(contract.endDate, locale) : ''}
                    </TableCell>
                    <TableCell align="right" className="nowrap">
                      {typeof contract.annualPremium === 'number'
                        ? formatChf(contract.annualPremium)
                        : ''}
                    </TableCell>
                  </TableRow>
                </RecordContextProvider>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
      {listPath ? (
        <Link
          component={RouterLink}
          to={listPath}
          variant="body2"
          sx={{ display: 'inline-block', mt: 1 }}
          data-testid={`customer-contracts-all-${contractType}`}
        >
          {translate('app.contracts.customerTab.showAll', { total: formatNumber(total) })}
        </Link>
      ) : null}
    </Box>
  );
}

export function CustomerContractsTab() {
  const record = useRecordContext<ApiRecord<'customers'>>();
  if (!record) return null;
  return (
    <Box data-testid="customer-contracts">
      <HouseholdCoverage customerId={record.id} />
      <ContractsTable customerId={record.id} contractType="closure" />
      <ContractsTable customerId={record.id} contractType="non-closure" />
    </Box>
  );
}
