/**
 * /admin/gs-users: staff accounts from the schema's list fields and filters, with the page size of
 * the user's settings, and the registrations waiting for approval answered in the row (approve
 * with a role, or decline).
 */
import {
  Button as MuiButton,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  TextField,
} from '@mui/material';
import { useState } from 'react';
import {
  Button,
  Datagrid,
  EditButton,
  List,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
} from 'react-admin';
import { pageSizeFor } from '../../../auth/session.ts';
import { fieldFor, listFields } from '../../../resources/fields.tsx';
import { filtersFor } from '../../../resources/inputs.tsx';
import type { ApiRecord } from '../../../resources/records.ts';
import type { Role } from '../../../schema/permissions.ts';
import { getModel } from '../../../resources/registry.ts';
import { resourceRoute } from '../../../shell/paths.ts';
import { useArea } from '../../../shell/area.ts';
import { api, messageOf } from '../../../dataProvider/apiClient.ts';

/** The roles an approval can give, the usual one first. */
const ROLES: Role[] = [
  'CONSULTANT',
  'BACKOFFICE',
  'BACKOFFICE-CALLCENTER',
  'ADMIN',
  'EMPLOYEE',
  'PARTNER',
];

/** Approve (with the role the account gets) or decline a pending registration. */
export function RegistrationActions() {
  const record = useRecordContext<ApiRecord<'users'>>();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [role, setRole] = useState<Role>('CONSULTANT');
  if (!record || record.registrationStatus !== 'pending') return null;
  const decide = async (action: 'approve' | 'reject') => {
    try {
      await api.json('POST', `users/${record.id}/${action}`, {
        body: action === 'approve' ? { role } : {},
      });
      notify(`app.users.${action}d`, { type: 'success' });
      setOpen(false);
      refresh();
    } catch (error) {
      notify(messageOf(error, 'app.login.unavailable'), { type: 'error' });
    }
  };
  return (
    <span onClick={(event) => event.stopPropagation()}>
      <Button label="app.users.approve" onClick={() => setOpen(true)} />
      <Button label="app.users.reject" color="error" onClick={() => void decide('reject')} />
      <Dialog open={open} onClose={() => setOpen(false)}>
        <DialogTitle>{translate('app.users.approveTitle', { email: record.email })}</DialogTitle>
        <DialogContent>
          <TextField
            select
            fullWidth
            sx={{ mt: 1 }}
            label={translate('resources.users.fields.role')}
            value={role}
            onChange={(event) => setRole(event.target.value as Role)}
          >
            {ROLES.map((value) => (
              <MenuItem key={value} value={value}>
                {translate(`enums.role.${value}`)}
              </MenuItem>
            ))}
          </TextField>
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={() => setOpen(false)}>{translate('ra.action.cancel')}</MuiButton>
          <MuiButton variant="contained" onClick={() => void decide('approve')}>
            {translate('app.users.approve')}
          </MuiButton>
        </DialogActions>
      </Dialog>
    </span>
  );
}

export default function UserList() {
  const model = getModel('users');
  const area = useArea();
  const sort = model.resource.defaultSort ?? { field: 'id', order: 'ASC' as const };
  return (
    <List filters={filtersFor(model)} sort={sort} perPage={pageSizeFor('users')}>
      <Datagrid
        rowClick={(id) => `/${area}/${resourceRoute(area, 'users', 'show', id)}`}
        bulkActionButtons={false}
      >
        {listFields(model).map((field) => fieldFor(model, field, { inList: true }))}
        <RegistrationActions />
        <EditButton />
      </Datagrid>
    </List>
  );
}
