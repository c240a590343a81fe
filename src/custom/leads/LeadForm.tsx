/**
 * Create and edit of a lead: the schema's inputs (inputFor) in the sections of its `x-group`s —
 * the person (the company's name only for a company; `?customerId=` links a customer), the
 * contact, the source and assignment with the notes. The board's own fields (position, attempts,
 * calls, the appointment) are the server's and not here. The lead source offers only the sources
 * the user's role may see (the server refuses others); a consultant assigns nobody (their leads
 * are theirs). The close reason shows only for a closed lead. The forms are the app's
 * (src/resources/forms/): server errors beside the inputs, the version conflict question on edit.
 */
import { Box, Typography } from '@mui/material';
import { useMemo } from 'react';
import {
  Create,
  Edit,
  required,
  SaveButton,
  SelectInput,
  Toolbar,
  useLocale,
  useTranslate,
} from 'react-admin';
import { useWatch } from 'react-hook-form';
import { useSearchParams } from 'react-router-dom';
import { getStoredUser } from '../../auth/session.ts';
import { ConflictGuard } from '../../resources/conflict/ConflictGuard.tsx';
import { SimpleForm } from '../../resources/forms/forms.tsx';
import { inputFor } from '../../resources/inputs.tsx';
import { fieldLabelKey } from '../../schema/labels.ts';
import type { FieldModel } from '../../schema/model.ts';
import { resourceRoute } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import { useLeadSources } from './components.tsx';
import { leadModel, storedViewerKey, viewerOfKey, visibleSources } from './model.ts';

/** The form's sections: the schema's groups and the title of each. */
const SECTIONS = [
  { group: 'person', title: 'app.leads.sections.person' },
  { group: 'contact', title: 'app.leads.sections.contact' },
  { group: 'sales', title: 'app.leads.sections.source' },
] as const;

const GRID = {
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))',
  columnGap: 2,
  width: '100%',
} as const;

/** Only the sources the user may see, by their name in the user's language. */
function LeadSourceInput() {
  const locale = useLocale();
  const viewer = storedViewerKey();
  const { sources, nameOf } = useLeadSources();
  const choices = useMemo(
    () =>
      visibleSources(sources, viewerOfKey(viewer), nameOf, locale).map((source) => ({
        id: source.id,
        name: nameOf(source),
      })),
    [sources, viewer, nameOf, locale],
  );
  return (
    <SelectInput
      source="leadSource"
      label={fieldLabelKey('leads', 'leadSource')}
      choices={choices}
      translateChoice={false}
      validate={required()}
      isPending={sources.length === 0}
    />
  );
}

function FieldInput({ field }: { field: FieldModel }) {
  const [isCompany, status] = useWatch({ name: ['isCompany', 'status'] }) as [unknown, unknown];
  if (field.name === 'organization' && isCompany !== true) return null;
  if (field.name === 'closeStatus' && status !== 'closed') return null;
  if (field.name === 'leadSource') return <LeadSourceInput />;
  if (field.name === 'notes') {
    return <Box sx={{ gridColumn: '1 / -1' }}>{inputFor(leadModel(), field)}</Box>;
  }
  return inputFor(leadModel(), field);
}

function LeadSections() {
  const translate = useTranslate();
  const consultant = getStoredUser()?.role === 'CONSULTANT';
  const model = leadModel();
  return (
    <>
      {SECTIONS.map(({ group, title }) => {
        const fields = model.fields.filter(
          (field) =>
            field.schema['x-group'] === group &&
            !field.readOnly &&
            !(consultant && field.name === 'assignedTo'),
        );
        return (
          <Box key={group} component="section" sx={{ width: '100%', mb: 1 }} data-section={group}>
            <Typography variant="subtitle2" color="text.secondary" sx={{ mb: 1 }}>
              {translate(title)}
            </Typography>
            <Box sx={GRID}>
              {fields.map((field) => (
                <FieldInput key={field.name} field={field} />
              ))}
            </Box>
          </Box>
        );
      })}
    </>
  );
}

const toolbar = (
  <Toolbar>
    <SaveButton data-testid="lead-save" />
  </Toolbar>
);

/** Only a closed lead has a close reason (the server insists), only a company its name. */
function leadBody(values: Record<string, unknown>): Record<string, unknown> {
  const body = { ...values };
  const clear = (name: string) => {
    if (body[name] !== undefined) body[name] = null;
  };
  if (body.status !== 'closed') clear('closeStatus');
  if (body.isCompany !== true) clear('organization');
  return body;
}

const showAfterSave =
  (area: ReturnType<typeof useArea>) => (_resource: string | undefined, id: unknown) =>
    resourceRoute(area, 'leads', 'show', String(id)) ?? '';

export function LeadCreate() {
  const area = useArea();
  const [params] = useSearchParams();
  const defaults = useMemo(() => {
    const customerId = Number(params.get('customerId'));
    return {
      isCompany: false,
      status: 'new',
      customerId: Number.isInteger(customerId) && customerId > 0 ? customerId : undefined,
    };
  }, [params]);
  return (
    <Create resource="leads" redirect={showAfterSave(area)} transform={leadBody}>
      <SimpleForm defaultValues={defaults} toolbar={toolbar}>
        <LeadSections />
      </SimpleForm>
    </Create>
  );
}

export default function LeadEdit() {
  const area = useArea();
  return (
    <Edit
      resource="leads"
      mutationMode="pessimistic"
      redirect={showAfterSave(area)}
      transform={leadBody}
    >
      <ConflictGuard>
        <SimpleForm toolbar={toolbar}>
          <LeadSections />
        </SimpleForm>
      </ConflictGuard>
    </Edit>
  );
}
