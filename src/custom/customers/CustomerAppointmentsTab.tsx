/**
 * The appointments tab of a customer (spec §2 customers/{id}?tab=appointments): the customer's
 * appointments, newest first — when, consultant, type, status — each linking to its page; "book
 * appointment" opens the booking form with the customer filled in (`appointments/new?clientId=`).
 */
import AddIcon from '@mui/icons-material/Add';
import { Link, TableCell, TableRow } from '@mui/material';
import {
  Button,
  RecordContextProvider,
  ReferenceField,
  useGetList,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import type { ApiRecord } from '../../resources/records.ts';
import { appointmentStatusKey } from '../../schema/appointments.ts';
import { enumKey, fieldLabelKey } from '../../schema/labels.ts';
import { resourceHref } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import { AppointmentWhen } from '../tasks/TaskItems.tsx';
import { CustomerTabTable } from './CustomerTabTable.tsx';

type Appointment = ApiRecord<'appointments'>;

export function CustomerAppointmentsTab() {
  const customer = useRecordContext<ApiRecord<'customers'>>();
  const translate = useTranslate();
  const area = useArea();
  const navigate = useNavigate();
  const {
    data = [],
    total,
    isPending,
  } = useGetList<Appointment>(
    'appointments',
    {
      filter: { clientId: customer?.id },
      pagination: { page: 1, perPage: 100 },
      sort: { field: 'dateStart', order: 'DESC' },
    },
    { enabled: Boolean(customer) },
  );
  if (!customer) return null;
  const create = resourceHref(area, 'appointments', 'create');
  const column = (name: string) => translate(fieldLabelKey('appointments', name));
  return (
    <CustomerTabTable
      testId="customer-appointments"
      title={translate('app.customers.tabs.appointments')}
      total={total}
      isPending={isPending}
      empty={data.length === 0}
      emptyText={translate('app.customers.noAppointments')}
      actions={
        <>
          {create ? (
            <Button
              label="app.customers.bookAppointment"
              onClick={() => navigate(`${create}?clientId=${customer.id}`)}
              data-testid="customer-appointment-new"
            >
              <AddIcon />
            </Button>
          ) : null}
        </>
      }
      head={
        <>
          <TableCell>{column('dateStart')}</TableCell>
          <TableCell>{column('consultantId')}</TableCell>
          <TableCell>{column('appointmentType')}</TableCell>
          <TableCell>{column('city')}</TableCell>
          <TableCell>{column('status')}</TableCell>
        </>
      }
    >
      {data.map((appointment) => (
        <RecordContextProvider key={appointment.id} value={appointment}>
          <TableRow hover data-testid={`customer-appointment-${appointment.id}`}>
            <TableCell>
              <Link
                component={RouterLink}
                to={resourceHref(area, 'appointments', 'show', appointment.id) ?? '#'}
              >
                <AppointmentWhen record={appointment} />
              </Link>
            </TableCell>
            <TableCell>
              {appointment.consultantId ? (
                <ReferenceField source="consultantId" reference="users" link={false} />
              ) : (
                '–'
              )}
            </TableCell>
            <TableCell>
              {appointment.appointmentType
                ? translate(enumKey('appointmentType', appointment.appointmentType))
                : ''}
            </TableCell>
            <TableCell>{appointment.city ?? ''}</TableCell>
            <TableCell>
              {appointment.status !== null && appointment.status !== undefined
                ? translate(appointmentStatusKey(appointment.status))
                : ''}
            </TableCell>
          </TableRow>
        </RecordContextProvider>
      ))}
    </CustomerTabTable>
  );
}
