/**
 * Generic list, show, edit and create views driven by the resource's schema. A resource can
 * replace any of them (src/resources/overrides.ts) without repeating its field list.
 */
import {
  Create,
  Datagrid,
  DeleteButton,
  Edit,
  EditButton,
  List,
  SaveButton,
  Show,
  ShowButton,
  SimpleForm,
  SimpleShowLayout,
  Toolbar,
  useResourceContext,
} from 'react-admin';
import type { ResourceModel } from '../schema/model.ts';
import { fieldFor, listFields } from './fields.tsx';
import { filtersFor, inputFor } from './inputs.tsx';
import { getModel } from './registry.ts';

function useModel(): ResourceModel {
  const resource = useResourceContext();
  if (!resource) throw new Error('A generic view needs a resource context');
  return getModel(resource);
}

export function GenericList() {
  const model = useModel();
  const sort = model.resource.defaultSort ?? { field: 'id', order: 'ASC' as const };
  return (
    <List filters={filtersFor(model)} sort={sort} perPage={25}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        {listFields(model).map((field) => fieldFor(model, field, { inList: true }))}
        <EditButton />
      </Datagrid>
    </List>
  );
}

export function GenericShow() {
  const model = useModel();
  return (
    <Show>
      <SimpleShowLayout>{model.fields.map((field) => fieldFor(model, field))}</SimpleShowLayout>
    </Show>
  );
}

function GenericForm({ model }: { model: ResourceModel }) {
  return (
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
  );
}

export function GenericEdit() {
  const model = useModel();
  // Pessimistic: the server's answer (and its field errors) arrives before the form closes.
  return (
    <Edit mutationMode="pessimistic" actions={<ShowButton />}>
      <GenericForm model={model} />
    </Edit>
  );
}

export function GenericCreate() {
  const model = useModel();
  return (
    <Create redirect="show">
      <GenericForm model={model} />
    </Create>
  );
}
