/**
 * external-users/{id}/edit: the generic inputs of the schema, plus a button that mails the account
 * a link to set its password (through its login row, POST /api/users/{userId}/send-password-link);
 * a version conflict asks Reload or Overwrite (ConflictGuard).
 */
import KeyIcon from '@mui/icons-material/Key';
import {
  Button,
  DeleteButton,
  Edit,
  SaveButton,
  Toolbar,
  TopToolbar,
  useNotify,
  useRecordContext,
} from 'react-admin';
import { ConflictGuard } from '../../../resources/conflict/ConflictGuard.tsx';
import { SimpleForm } from '../../../resources/forms/forms.tsx';
import { inputFor } from '../../../resources/inputs.tsx';
import type { ApiRecord } from '../../../resources/records.ts';
import { getModel } from '../../../resources/registry.ts';
import { api, messageOf } from '../../../dataProvider/apiClient.ts';

function SendPasswordLink() {
  const record = useRecordContext<ApiRecord<'external-users'>>();
  const notify = useNotify();
  if (!record?.userId) return null;
  return (
    <Button
      label="app.users.sendPasswordLink"
      onClick={() =>
        api.json('POST', `users/${record.userId}/send-password-link`, { body: {} }).then(
          () => notify('app.users.passwordLinkSent', { type: 'success' }),
          (error: unknown) => notify(messageOf(error, 'app.login.unavailable'), { type: 'error' }),
        )
      }
    >
      <KeyIcon />
    </Button>
  );
}

export default function ExternalUserEdit() {
  const model = getModel('external-users');
  return (
    <Edit
      mutationMode="pessimistic"
      actions={
        <TopToolbar>
          <SendPasswordLink />
        </TopToolbar>
      }
    >
      <ConflictGuard>
        <SimpleForm
          toolbar={
            <Toolbar sx={{ justifyContent: 'space-between' }}>
              <SaveButton />
              <DeleteButton mutationMode="pessimistic" />
            </Toolbar>
          }
        >
          {model.fields.map((field) => inputFor(model, field))}
        </SimpleForm>
      </ConflictGuard>
    </Edit>
  );
}
