/**
 * The offers tab of a customer (spec §2 customers/{id}?tab=offers): the customer's offers the user
 * may see, newest first — insurer, product, annual premium, validity, status, source — each linking
 * to its page; "add offer" opens the offer form with the customer filled in.
 */
import AddIcon from '@mui/icons-material/Add';
import { Link, TableCell, TableRow } from '@mui/material';
import {
  Button,
  RecordContextProvider,
  ReferenceField,
  useGetList,
  useLocale,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { formatDate, formatNumber } from '../../i18n/format.ts';
import type { ApiRecord } from '../../resources/records.ts';
import { enumKey, fieldLabelKey } from '../../schema/labels.ts';
import { resourceHref } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import type { Offer } from './model.ts';
import { OfferStatusChip } from './OfferShow.tsx';
import { CustomerTabTable } from '../customers/CustomerTabTable.tsx';

export function CustomerOffersTab() {
  const customer = useRecordContext<ApiRecord<'customers'>>();
  const translate = useTranslate();
  const locale = useLocale();
  const area = useArea();
  const navigate = useNavigate();
  const {
    data = [],
    total,
    isPending,
  } = useGetList<Offer>(
    'offers',
    {
      filter: { customerId: customer?.id },
      pagination: { page: 1, perPage: 100 },
      sort: { field: 'createdAt', order: 'DESC' },
    },
    { enabled: Boolean(customer) },
  );
  if (!customer) return null;
  const create = resourceHref(area, 'offers', 'create');
  const column = (name: string) => translate(fieldLabelKey('offers', name));
  return (
    <CustomerTabTable
      testId="customer-offers"
      title={translate('app.customers.tabs.offers')}
      total={total}
      isPending={isPending}
      empty={data.length === 0}
      emptyText={translate('app.offers.noneForCustomer')}
      actions={
        <>
          {create ? (
            <Button
              label="app.offers.add"
              onClick={() =>
                navigate(
                  `${create}?source=${encodeURIComponent(JSON.stringify({ customerId: customer.id }))}`,
                )
              }
              data-testid="customer-offer-new"
            >
              <AddIcon />
            </Button>
          ) : null}
        </>
      }
      head={
        <>
          <TableCell>#</TableCell>
          <TableCell>{column('companyId')}</TableCell>
          <TableCell>{column('productId')}</TableCell>
          <TableCell align="right">{column('annualPremium')}</TableCell>
          <TableCell>{column('validUntil')}</TableCell>
          <TableCell>{column('status')}</TableCell>
          <TableCell>{column('source')}</TableCell>
        </>
      }
    >
      {data.map((offer) => (
        <RecordContextProvider key={offer.id} value={offer}>
          <TableRow hover data-testid={`customer-offer-${offer.id}`}>
            <TableCell>
              <Link
                component={RouterLink}
                to={resourceHref(area, 'offers', 'show', offer.id) ?? '#'}
              >
                #{offer.id}
              </Link>
            </TableCell>
            <TableCell>
              <ReferenceField source="companyId" reference="companies" link={false} />
            </TableCell>
            <TableCell>
              <ReferenceField source="productId" reference="products" link={false} />
            </TableCell>
            <TableCell align="right">
              {offer.annualPremium === null || offer.annualPremium === undefined
                ? ''
                : formatNumber(offer.annualPremium, { decimals: 2 })}
            </TableCell>
            <TableCell>{offer.validUntil ? formatDate(offer.validUntil, locale) : ''}</TableCell>
            <TableCell>
              <OfferStatusChip status={offer.status} />
            </TableCell>
            <TableCell>
              {offer.source ? translate(enumKey('offerSource', offer.source)) : ''}
            </TableCell>
          </TableRow>
        </RecordContextProvider>
      ))}
    </CustomerTabTable>
  );
}
