/**
 * The household tab: the customer's family members; add, edit and remove them (the schema's
 * inputs in a dialog, pessimistic so the server's field errors show beside the inputs and a version
 * conflict asks Reload or Overwrite), and turn a member into a customer of its own. The member form
 * asks the names first (then the birth date beside the partnership date) and starts a new member
 * with the customer's last name; the date rules of ./model.ts run on their inputs.
 */
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import {
  Box,
  Button as MuiButton,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import {
  Button,
  CreateBase,
  EditBase,
  type Identifier,
  SaveButton,
  Toolbar,
  type Validator,
  useDelete,
  useGetList,
  useLocale,
  useNotify,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { formatDate } from '../../i18n/format.ts';
import { ConflictGuard } from '../../resources/conflict/ConflictGuard.tsx';
import { SimpleForm, withValidator } from '../../resources/forms/forms.tsx';
import { inputFor } from '../../resources/inputs.tsx';
import type { ApiRecord } from '../../resources/records.ts';
import { enumKey, fieldLabelKey } from '../../schema/labels.ts';
import { resourceRoute } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import { api, errorDetails, messageOf } from '../../dataProvider/apiClient.ts';
import { INPUT_GRID, memberModel, validatePerson } from './model.ts';

/** Fields of the member form: everything a client writes but the customer and the link. */
const FORM_EXCLUDED = new Set(['customerId', 'linkedCustomerId']);

/** The schema's order, but the birth date just before the partnership date (after the names). */
function memberFields() {
  const fields = memberModel().fields.filter(
    (field) => !field.readOnly && !FORM_EXCLUDED.has(field.name),
  );
  const birth = fields.find((field) => field.name === 'dateOfBirth');
  if (!birth) return fields;
  const rest = fields.filter((field) => field !== birth);
  const at = rest.findIndex((field) => field.name === 'partnershipDate');
  return at < 0 ? fields : [...rest.slice(0, at), birth, ...rest.slice(at)];
}

/** The date rule of one field (model.ts), as a react-admin validator. */
const personRule =
  (name: string): Validator =>
  (_value: unknown, values: Parameters<typeof validatePerson>[0]) =>
    validatePerson(values)[name];

function MemberInputs() {
  const model = memberModel();
  return (
    <Box sx={INPUT_GRID}>
      {memberFields().map((field) => withValidator(inputFor(model, field), personRule(field.name)))}
    </Box>
  );
}

function MemberDialog({
  customerId,
  lastName,
  memberId,
  onClose,
}: {
  customerId: Identifier;
  /** The customer's last name, the new member's first guess. */
  lastName?: string | null;
  memberId?: Identifier;
  onClose: (changed: boolean) => void;
}) {
  const translate = useTranslate();
  const toolbar = (
    <Toolbar sx={{ justifyContent: 'space-between' }}>
      <MuiButton onClick={() => onClose(false)}>{translate('ra.action.cancel')}</MuiButton>
      <SaveButton data-testid="member-save" />
    </Toolbar>
  );
  return (
    <Dialog
      open
      onClose={() => onClose(false)}
      fullWidth
      maxWidth="md"
      aria-labelledby="member-title"
    >
      <DialogTitle id="member-title">
        {translate(memberId ? 'app.customers.household.edit' : 'app.customers.household.add')}
      </DialogTitle>
      <DialogContent>
        {memberId ? (
          <EditBase
            resource="household-members"
            id={memberId}
            mutationMode="pessimistic"
            redirect={false}
            mutationOptions={{ onSuccess: () => onClose(true) }}
          >
            <ConflictGuard>
              <SimpleForm warnWhenUnsavedChanges={false} toolbar={toolbar}>
                <MemberInputs />
              </SimpleForm>
            </ConflictGuard>
          </EditBase>
        ) : (
          <CreateBase
            resource="household-members"
            redirect={false}
            record={{ customerId, sameHousehold: true, ...(lastName ? { lastName } : {}) }}
            mutationOptions={{ onSuccess: () => onClose(true) }}
          >
            {/* In a modal dialog: nothing behind it can be clicked (./forms.tsx). */}
            <SimpleForm warnWhenUnsavedChanges={false} toolbar={toolbar}>
              <MemberInputs />
            </SimpleForm>
          </CreateBase>
        )}
      </DialogContent>
    </Dialog>
  );
}

type Member = ApiRecord<'household-members'>;

export function HouseholdTab() {
  const customer = useRecordContext<ApiRecord<'customers'>>();
  const translate = useTranslate();
  const language = useLocale();
  const notify = useNotify();
  const navigate = useNavigate();
  const area = useArea();
  const [dialog, setDialog] = useState<{ memberId?: Identifier } | null>(null);
  const [confirm, setConfirm] = useState<Member | null>(null);
  const [remove] = useDelete();
  const {
    data = [],
    refetch,
    isPending,
  } = useGetList<Member>('household-members', {
    filter: { customerId: customer?.id },
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'id', order: 'ASC' },
  });
  if (!customer) return null;
  const showPath = (id: Identifier) => `/${area}/${resourceRoute(area, 'customers', 'show', id)}`;

  const convert = async (member: Member) => {
    try {
      const answer = await api.json<{ data: { id: number } }>(
        'POST',
        `household-members/${member.id}/convert`,
      );
      notify('app.customers.household.converted', { type: 'success' });
      navigate(showPath(answer.data.id));
    } catch (error) {
      const detail = errorDetails(error, translate).join('; ');
      const message = translate(messageOf(error));
      notify(detail ? `${message} ${detail}` : message, { type: 'error' });
    }
  };

  return (
    <Box>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 1 }}>
        <Button
          label="app.customers.household.add"
          onClick={() => setDialog({})}
          data-testid="member-add"
        >
          <AddIcon />
        </Button>
      </Box>
      {!isPending && data.length === 0 ? (
        <Typography color="text.secondary">{translate('app.customers.household.empty')}</Typography>
      ) : (
        <Table size="small" data-testid="household-table">
          <TableHead>
            <TableRow>
              {['firstName', 'lastName', 'relation', 'dateOfBirth', 'sameHousehold'].map(
                (field) => (
                  <TableCell key={field}>
                    {translate(fieldLabelKey('household-members', field))}
                  </TableCell>
                ),
              )}
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {data.map((member) => (
              <TableRow key={member.id}>
                <TableCell>{member.firstName}</TableCell>
                <TableCell>{member.lastName}</TableCell>
                <TableCell>
                  {member.relation ? translate(enumKey('householdRelation', member.relation)) : ''}
                </TableCell>
                <TableCell>
                  {member.dateOfBirth ? formatDate(member.dateOfBirth, language) : ''}
                </TableCell>
                <TableCell>
                  {translate(member.sameHousehold ? 'app.customers.yes' : 'app.customers.no')}
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {member.linkedCustomerId ? (
                    <MuiButton
                      size="small"
                      onClick={() => navigate(showPath(member.linkedCustomerId as number))}
                    >
                      {translate('app.customers.household.openCustomer')}
                    </MuiButton>
                  ) : (
                    <Tooltip title={translate('app.customers.household.convert')}>
                      <IconButton
                        size="small"
                        onClick={() => convert(member)}
                        aria-label={translate('app.customers.household.convert')}
                      >
                        <PersonAddIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
                  <IconButton
                    size="small"
                    onClick={() => setDialog({ memberId: member.id })}
                    aria-label={translate('ra.action.edit')}
                  >
                    <EditIcon fontSize="small" />
                  </IconButton>
                  <IconButton
                    size="small"
                    onClick={() => setConfirm(member)}
                    aria-label={translate('ra.action.delete')}
                  >
                    <DeleteIcon fontSize="small" />
                  </IconButton>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {dialog ? (
        <MemberDialog
          customerId={customer.id}
          lastName={customer.isCompany ? undefined : customer.lastName}
          memberId={dialog.memberId}
          onClose={(changed) => {
            setDialog(null);
            if (changed) void refetch();
          }}
        />
      ) : null}
      <Dialog open={confirm !== null} onClose={() => setConfirm(null)}>
        <DialogTitle>{translate('app.customers.household.removeTitle')}</DialogTitle>
        <DialogContent>{confirm ? `${confirm.firstName} ${confirm.lastName}` : ''}</DialogContent>
        <DialogActions>
          <MuiButton onClick={() => setConfirm(null)}>{translate('ra.action.cancel')}</MuiButton>
          <MuiButton
            color="error"
            variant="contained"
            onClick={() => {
              const member = confirm;
              setConfirm(null);
              if (!member) return;
              remove(
                'household-members',
                { id: member.id, previousData: member },
                {
                  mutationMode: 'pessimistic',
                  onSuccess: () => void refetch(),
                  onError: () => notify('ra.notification.http_error', { type: 'error' }),
                },
              );
            }}
          >
            {translate('ra.action.delete')}
          </MuiButton>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
