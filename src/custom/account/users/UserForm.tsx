/**
 * Create and edit of a staff user, in the spec's sections (user, entity, assignment, account) —
 * the schema's `x-group` of each field decides the tab, so no field list is repeated here. On one's
 * own record the rights fields are read-only (the server refuses changing them anyway). The edit
 * view also mails a link to set the password and ends the account's sessions; a version conflict
 * asks Reload or Overwrite (ConflictGuard).
 */
import KeyIcon from '@mui/icons-material/Key';
import LogoutIcon from '@mui/icons-material/Logout';
import {
  Button,
  Create,
  DeleteButton,
  Edit,
  SaveButton,
  ShowButton,
  Toolbar,
  TopToolbar,
  useNotify,
  useRecordContext,
} from 'react-admin';
import { cloneElement, type ReactElement } from 'react';
import { getStoredUser } from '../../../auth/session.ts';
import { ConflictGuard } from '../../../resources/conflict/ConflictGuard.tsx';
import { TabbedForm } from '../../../resources/forms/forms.tsx';
import { inputFor } from '../../../resources/inputs.tsx';
import type { ApiRecord } from '../../../resources/records.ts';
import { getModel } from '../../../resources/registry.ts';
import { resourceRoute } from '../../../shell/paths.ts';
import { useArea } from '../../../shell/area.ts';
import { api, messageOf } from '../../../dataProvider/apiClient.ts';

const GROUPS = ['user', 'entity', 'assignment', 'account'] as const;
const RIGHTS = new Set(['role', 'additionalPermissions', 'isActive']);

function Inputs({ group }: { group: string }) {
  const model = getModel('users');
  const record = useRecordContext<ApiRecord<'users'>>();
  const self = record?.id !== undefined && record.id === getStoredUser()?.id;
  return (
    <>
      {model.fields
        .filter((field) => (field.schema['x-group'] ?? 'entity') === group)
        .map((field) => {
          const input = inputFor(model, field);
          if (!input) return null;
          return self && RIGHTS.has(field.name)
            ? cloneElement(input as ReactElement<{ disabled?: boolean }>, { disabled: true })
            : input;
        })}
    </>
  );
}

function UserTabs({ toolbar }: { toolbar: ReactElement }) {
  return (
    // Tabs kept in the form's state: the route table owns the URL (users/{id}/edit).
    <TabbedForm toolbar={toolbar} syncWithLocation={false}>
      {GROUPS.map((group) => (
        <TabbedForm.Tab key={group} label={`app.users.group.${group}`}>
          <Inputs group={group} />
        </TabbedForm.Tab>
      ))}
    </TabbedForm>
  );
}

function AccountActions() {
  const record = useRecordContext<ApiRecord<'users'>>();
  const notify = useNotify();
  if (!record) return null;
  const act = async (action: 'send-password-link' | 'revoke-sessions', done: string) => {
    try {
      await api.json('POST', `users/${record.id}/${action}`, { body: {} });
      notify(done, { type: 'success' });
    } catch (error) {
      notify(messageOf(error, 'app.login.unavailable'), { type: 'error' });
    }
  };
  return (
    <>
      <Button
        label="app.users.sendPasswordLink"
        onClick={() => void act('send-password-link', 'app.users.passwordLinkSent')}
      >
        <KeyIcon />
      </Button>
      <Button
        label="app.users.revokeSessions"
        onClick={() => void act('revoke-sessions', 'app.users.sessionsRevoked')}
      >
        <LogoutIcon />
      </Button>
    </>
  );
}

export function UserEdit() {
  return (
    <Edit
      mutationMode="pessimistic"
      actions={
        <TopToolbar>
          <AccountActions />
          <ShowButton />
        </TopToolbar>
      }
    >
      <ConflictGuard>
        <UserTabs
          toolbar={
            <Toolbar sx={{ justifyContent: 'space-between' }}>
              <SaveButton />
              <DeleteButton mutationMode="pessimistic" />
            </Toolbar>
          }
        />
      </ConflictGuard>
    </Edit>
  );
}

export function UserCreate() {
  const area = useArea();
  return (
    <Create redirect={(_resource, id) => resourceRoute(area, 'users', 'show', id) ?? ''}>
      <UserTabs
        toolbar={
          <Toolbar>
            <SaveButton />
          </Toolbar>
        }
      />
    </Create>
  );
}

export default UserEdit;
