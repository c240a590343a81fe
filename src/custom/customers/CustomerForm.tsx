/**
 * Create and edit of a customer: the schema's inputs (inputFor) in the sections of `x-group`;
 * `isCompany` switches between the company's fields and a person's. On create, possible duplicates
 * (same name and birth date, email or phone) are shown before saving; the user may save anyway. On
 * edit, a version conflict asks Reload or Overwrite (ConflictGuard). The forms are the app's
 * (src/resources/forms/): the server's errors beside the fields, those of hidden fields (e.g. a
 * person's data while "company" is on) in a notification, a question before unsaved changes are
 * left. The customer rules of ./model.ts run as each input's validator, beside the schema's own (a
 * form-level `validate` would switch the inputs' validators off).
 */
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  ListItemText,
  Typography,
} from '@mui/material';
import { useEffect, useState } from 'react';
import {
  Create,
  Edit,
  SaveButton,
  Toolbar,
  useSaveContext,
  useTranslate,
  type Validator,
} from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { ConflictGuard } from '../../resources/conflict/ConflictGuard.tsx';
import { SimpleForm, useSubmitForm, withValidator } from '../../resources/forms/forms.tsx';
import { inputFor } from '../../resources/inputs.tsx';
import type { ApiRecord } from '../../resources/records.ts';
import { resourceRoute } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import { api } from '../../dataProvider/apiClient.ts';
import {
  BACK_OFFICE_FIELDS,
  customerModel,
  customerName,
  fieldsOf,
  GROUPS,
  type Group,
  INPUT_GRID,
  isBackOffice,
  type CustomerValues,
  validateCustomer,
} from './model.ts';

/** The customer rule of one field (model.ts), as a react-admin validator. */
const customerRule =
  (name: string): Validator =>
  (_value: unknown, values: CustomerValues) =>
    validateCustomer(values)[name];

function Section({ group }: { group: Group }) {
  const translate = useTranslate();
  const model = customerModel();
  const backOffice = isBackOffice();
  const fields = fieldsOf(group).filter(
    (field) => backOffice || !BACK_OFFICE_FIELDS.has(field.name),
  );
  if (fields.length === 0) return null;
  return (
    <Box component="section" sx={{ width: '100%', mb: 1 }} data-section={group}>
      <Typography variant="subtitle2" color="text.secondary" sx={{ mb: 1 }}>
        {translate(`app.customers.sections.${group}`)}
      </Typography>
      <Box sx={group === 'notes' ? { width: '100%' } : INPUT_GRID}>
        {fields.map((field) => withValidator(inputFor(model, field), customerRule(field.name)))}
      </Box>
    </Box>
  );
}

/** The sections of the form; a company shows its organization and no personal data. */
function CustomerSections() {
  const isCompany = useWatch({ name: 'isCompany' }) === true;
  const { trigger, formState } = useFormContext();
  const { isSubmitted } = formState;
  // The names' rule depends on the kind: after a submit, switching it checks them again.
  useEffect(() => {
    if (isSubmitted) void trigger(['firstName', 'lastName']);
  }, [isCompany, isSubmitted, trigger]);
  return (
    <>
      {GROUPS.filter((group) => (isCompany ? group !== 'person' : group !== 'company')).map(
        (group) => (
          <Section key={group} group={group} />
        ),
      )}
    </>
  );
}

/** A possible duplicate (GET customers/duplicates): some of its fields, and why it matched. */
type Duplicate = Pick<
  ApiRecord<'customers'>,
  | 'id'
  | 'organization'
  | 'firstName'
  | 'lastName'
  | 'dateOfBirth'
  | 'email'
  | 'phoneNumber'
  | 'city'
> & { reasons: string[] };

/** Save button of the create form: checks for duplicates first. */
function SaveWithDuplicateCheck() {
  const translate = useTranslate();
  const area = useArea();
  const { getValues, trigger } = useFormContext();
  const saveContext = useSaveContext();
  const submit = useSubmitForm();
  const [found, setFound] = useState<{ data: Duplicate[]; hidden: boolean } | null>(null);
  const [checking, setChecking] = useState(false);

  // Through the form's submit, so the server's answer reaches the inputs and the summary.
  const save = () => void submit();
  const check = async () => {
    // An invalid form is submitted anyway: the submit names the errors (and saves nothing).
    if (!(await trigger())) return save();
    const values = getValues();
    const query = new URLSearchParams();
    for (const [key, param] of [
      ['firstName', 'first_name'],
      ['lastName', 'last_name'],
      ['dateOfBirth', 'date_of_birth'],
      ['email', 'email'],
      ['phoneNumber', 'phone_number'],
      ['organization', 'organization'],
    ]) {
      const value = values[key];
      if (typeof value === 'string' && value.trim()) query.set(param, value.trim());
    }
    setChecking(true);
    try {
      const answer = await api.json<{ data: Duplicate[]; hidden: boolean }>(
        'GET',
        `customers/duplicates?${query}`,
      );
      if (answer.data.length === 0 && !answer.hidden) save();
      else setFound(answer);
    } catch {
      save();
    } finally {
      setChecking(false);
    }
  };
  return (
    <>
      <Button
        variant="contained"
        onClick={check}
        disabled={checking || saveContext.saving}
        data-testid="customer-save"
      >
        {translate('ra.action.save')}
      </Button>
      <Dialog
        open={found !== null}
        onClose={() => setFound(null)}
        aria-labelledby="duplicates-title"
      >
        <DialogTitle id="duplicates-title">
          {translate('app.customers.duplicates.title')}
        </DialogTitle>
        <DialogContent>
          <Typography variant="body2" sx={{ mb: 1 }}>
            {translate('app.customers.duplicates.text')}
          </Typography>
          <List dense>
            {found?.data.map((duplicate) => (
              <ListItem
                key={duplicate.id}
                component="a"
                href={`/${area}/${resourceRoute(area, 'customers', 'show', duplicate.id)}`}
                target="_blank"
              >
                <ListItemText
                  primary={`${customerName(duplicate)}${duplicate.city ? `, ${duplicate.city}` : ''}`}
                  secondary={duplicate.reasons
                    .map((reason) => translate(`app.customers.duplicates.reasons.${reason}`))
                    .join(' · ')}
                />
              </ListItem>
            ))}
          </List>
          {found?.hidden ? (
            <Typography variant="body2" color="text.secondary">
              {translate('app.customers.duplicates.hiddenExists')}
            </Typography>
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setFound(null)}>{translate('ra.action.cancel')}</Button>
          <Button
            variant="contained"
            data-testid="customer-save-anyway"
            onClick={() => {
              setFound(null);
              save();
            }}
          >
            {translate('app.customers.duplicates.saveAnyway')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

export function CustomerCreate() {
  const area = useArea();
  return (
    <Create
      redirect={(_resource, id) => resourceRoute(area, 'customers', 'show', id) ?? ''}
      transform={(data: Record<string, unknown>) => ({ isCompany: false, country: 'CH', ...data })}
    >
      <SimpleForm
        defaultValues={{
          isCompany: false,
          country: 'CH',
          correspondenceLanguages: [],
          languages: [],
        }}
        toolbar={
          <Toolbar>
            <SaveWithDuplicateCheck />
          </Toolbar>
        }
      >
        <CustomerSections />
      </SimpleForm>
    </Create>
  );
}

export function CustomerEdit() {
  const area = useArea();
  return (
    <Edit
      mutationMode="pessimistic"
      redirect={(_resource, id) => resourceRoute(area, 'customers', 'show', id) ?? ''}
    >
      <ConflictGuard>
        <SimpleForm
          toolbar={
            <Toolbar>
              <SaveButton />
            </Toolbar>
          }
        >
          <CustomerSections />
        </SimpleForm>
      </ConflictGuard>
    </Edit>
  );
}

export default CustomerEdit;
