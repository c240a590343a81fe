/**
 * external-users/{id}/edit: the generic inputs of the schema, plus a button that mails the account
 * a link to set its password (through its login row, POST /api/users/{userId}/send-password-link).
 */
import KeyIcon from '@mui/icons-material/Key';
import {
  Button,
  DeleteButton,
  Edit,
  SaveButton,
  SimpleForm,
  Toolbar,
  TopToolbar,
  useNotify,
  useRecordContext,
} from 'react-admin';
import { inputFor } from '../../../resources/inputs.tsx';
import { getModel } from '../../../resources/registry.ts';
import { accountApi } from '../api.ts';

function SendPasswordLink() {
  const record = useRecordContext();
  const notify = useNotify();
  if (!record?.userId) return null;
  return (
    <Button
      label="app.users.sendPasswordLink"
      onClick={() =>
        accountApi('POST', `users/${record.userId}/send-password-link`, {}).then(
          () => notify('app.users.passwordLinkSent', { type: 'success' }),
          (error: Error) => notify(error.message, { type: 'error' }),
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
    </Edit>
  );
}
