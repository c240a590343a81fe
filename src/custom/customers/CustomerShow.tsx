/**
 * Customer detail: a header (picture, name, consultant, contact) and the tabs of `?tab=`:
 * overview, household, contracts, appointments, reminders, offers, documents, notes (notes and
 * history: the customer's changes with its documents' and household members', merges included). Contracts: the household coverage and the customer's contracts (src/custom/contracts/).
 * Appointments (./CustomerAppointmentsTab.tsx: with "book appointment") and reminders
 * (src/custom/reminders/CustomerRemindersTab.tsx: every status, with "add reminder"), offers
 * (src/custom/offers/CustomerOffersTab.tsx: with "add offer"), car-insurance comparisons
 * (src/custom/comparison/CustomerComparisonsTab.tsx: drafts, "new comparison", links), Global
 * checks (src/custom/globalCheck/CustomerGlobalCheckTab.tsx: saved checks, their page).
 */
import EditIcon from '@mui/icons-material/Edit';
import { Box, Card, CardContent, Chip, Stack, Tab, Tabs, Typography } from '@mui/material';
import {
  Button,
  Labeled,
  ReferenceField,
  ShowBase,
  Title,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { fieldFor } from '../../resources/fields.tsx';
import { HistoryButton } from '../../resources/history/HistoryButton.tsx';
import { HistoryList } from '../../resources/history/HistoryList.tsx';
import type { ApiRecord } from '../../resources/records.ts';
import { formatPhone } from '../../schema/phone.ts';
import { resourceRoute } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import { CustomerComparisonsTab } from '../comparison/CustomerComparisonsTab.tsx';
import { CustomerContractsTab } from '../contracts/CustomerContractsTab.tsx';
import { CustomerGlobalCheckTab } from '../globalCheck/CustomerGlobalCheckTab.tsx';
import { CustomerOffersTab } from '../offers/CustomerOffersTab.tsx';
import { CustomerRemindersTab } from '../reminders/CustomerRemindersTab.tsx';
import { CustomerAppointmentsTab } from './CustomerAppointmentsTab.tsx';
import { EditableAvatar } from './CustomerAvatar.tsx';
import { DocumentsTab } from './DocumentsTab.tsx';
import { HouseholdTab } from './HouseholdTab.tsx';
import { MergeButton } from './MergeDialog.tsx';
import { PersonalDataActions } from './PersonalDataActions.tsx';
import { canMerge, customerModel, customerName, fieldsOf, type Group } from './model.ts';

export const TABS = [
  'overview',
  'household',
  'contracts',
  'appointments',
  'reminders',
  'offers',
  'comparisons',
  'globalCheck',
  'documents',
  'notes',
] as const;
export type CustomerTab = (typeof TABS)[number];

function FieldsOf({ groups }: { groups: Group[] }) {
  const model = customerModel();
  const record = useRecordContext();
  const translate = useTranslate();
  return (
    <Stack spacing={2}>
      {groups.map((group) => {
        const fields = fieldsOf(group);
        if (fields.length === 0) return null;
        return (
          <Box key={group}>
            <Typography variant="subtitle2" color="text.secondary" sx={{ mb: 1 }}>
              {translate(`app.customers.sections.${group}`)}
            </Typography>
            <Box
              sx={{
                display: 'grid',
                gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))',
                gap: 2,
              }}
            >
              {fields.map((field) => {
                const element = fieldFor(model, field);
                if (!element) return null;
                const value = record?.[field.name];
                return (
                  <Labeled key={field.name} label={(element.props as { label: string }).label}>
                    {value === null || value === undefined || value === '' ? (
                      <Typography variant="body2" color="text.disabled">
                        –
                      </Typography>
                    ) : (
                      element
                    )}
                  </Labeled>
                );
              })}
            </Box>
          </Box>
        );
      })}
    </Stack>
  );
}

function Header() {
  const record = useRecordContext<ApiRecord<'customers'>>();
  const translate = useTranslate();
  const area = useArea();
  const navigate = useNavigate();
  if (!record) return null;
  const editPath = resourceRoute(area, 'customers', 'edit', record.id);
  return (
    <Card sx={{ mb: 2 }}>
      <CardContent sx={{ display: 'flex', gap: 3, alignItems: 'center', flexWrap: 'wrap' }}>
        <EditableAvatar record={record} />
        <Box sx={{ flex: 1, minWidth: 200 }}>
          <Typography variant="h5" component="h1" data-testid="customer-name">
            {customerName(record)}
          </Typography>
          <Stack direction="row" useFlexGap spacing={1} sx={{ mt: 0.5, flexWrap: 'wrap' }}>
            <Chip
              size="small"
              label={translate(
                record.isCompany ? 'app.customers.filters.company' : 'app.customers.filters.person',
              )}
            />
            {record.city ? (
              <Chip
                size="small"
                variant="outlined"
                label={`${record.zip ?? ''} ${record.city}`.trim()}
              />
            ) : null}
          </Stack>
          <Typography
            variant="body2"
            color="text.secondary"
            sx={{ mt: 1, overflowWrap: 'anywhere' }}
          >
            {[record.email, record.phoneNumber && formatPhone(record.phoneNumber)]
              .filter(Boolean)
              .join(' · ')}
          </Typography>
        </Box>
        <Box>
          <Labeled label="resources.customers.fields.assignedTo">
            {record.assignedTo ? (
              <ReferenceField source="assignedTo" reference="users" link={false} />
            ) : (
              <Typography variant="body2">
                {translate('app.customers.assignment.unassigned')}
              </Typography>
            )}
          </Labeled>
        </Box>
        {/* The actions wrap onto a second line on a narrow screen (tablet) instead of widening it. */}
        <Stack direction="row" useFlexGap spacing={1} sx={{ flexWrap: 'wrap', flexBasis: '100%' }}>
          {editPath ? (
            <Button
              label="ra.action.edit"
              onClick={() => navigate(`/${area}/${editPath}`)}
              data-testid="customer-edit"
            >
              <EditIcon />
            </Button>
          ) : null}
          <HistoryButton resource="customers" />
          {canMerge() ? <MergeButton /> : null}
          <PersonalDataActions />
        </Stack>
      </CardContent>
    </Card>
  );
}

function CustomerTabs() {
  const translate = useTranslate();
  const record = useRecordContext<ApiRecord<'customers'>>();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab') as CustomerTab | null;
  const tab: CustomerTab = requested && TABS.includes(requested) ? requested : 'overview';
  if (!record) return null;
  const personal: Group[] = record.isCompany ? ['company', 'name'] : ['name', 'person'];
  return (
    <Card>
      <Tabs
        value={tab}
        onChange={(_event, value: CustomerTab) => setParams({ tab: value }, { replace: true })}
        variant="scrollable"
        scrollButtons="auto"
        sx={{ borderBottom: 1, borderColor: 'divider' }}
      >
        {TABS.map((value) => (
          <Tab
            key={value}
            value={value}
            label={translate(`app.customers.tabs.${value}`)}
            data-testid={`tab-${value}`}
          />
        ))}
      </Tabs>
      <CardContent>
        {tab === 'overview' ? (
          <FieldsOf groups={[...personal, 'address', 'contact', 'sales']} />
        ) : null}
        {tab === 'household' ? <HouseholdTab /> : null}
        {tab === 'documents' ? <DocumentsTab /> : null}
        {tab === 'contracts' ? <CustomerContractsTab /> : null}
        {tab === 'appointments' ? <CustomerAppointmentsTab /> : null}
        {tab === 'reminders' ? <CustomerRemindersTab /> : null}
        {tab === 'notes' ? (
          <Stack spacing={2}>
            <FieldsOf groups={['notes']} />
            <Box sx={{ display: 'flex', gap: 4 }}>
              {['createdAt', 'updatedAt'].map((name) => {
                const model = customerModel();
                const field = model.fields.find((candidate) => candidate.name === name);
                return field ? (
                  <Labeled key={name} label={`resources.customers.fields.${name}`}>
                    {fieldFor(model, field) ?? <span />}
                  </Labeled>
                ) : null;
              })}
            </Box>
            <Box data-testid="customer-history">
              <Typography variant="subtitle2" color="text.secondary" sx={{ mb: 1 }}>
                {translate('app.history.title')}
              </Typography>
              <HistoryList
                filter={{ resource: 'customers', recordId: record.id }}
                subject="customers"
              />
            </Box>
          </Stack>
        ) : null}
        {tab === 'offers' ? <CustomerOffersTab /> : null}
        {tab === 'comparisons' ? <CustomerComparisonsTab /> : null}
        {tab === 'globalCheck' ? <CustomerGlobalCheckTab /> : null}
      </CardContent>
    </Card>
  );
}

function Page() {
  const record = useRecordContext<ApiRecord<'customers'>>();
  if (!record) return null;
  return (
    <Box sx={{ mt: 2 }}>
      <Title title={customerName(record)} />
      <Header />
      <CustomerTabs />
    </Box>
  );
}

export default function CustomerShow() {
  return (
    <ShowBase>
      <Page />
    </ShowBase>
  );
}
