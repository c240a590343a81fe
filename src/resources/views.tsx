/**
 * Generic list, show, edit and create views driven by the resource's schema. A resource can
 * replace any of them (src/resources/overrides.ts) without repeating its field list. Where they lead
 * (row click, edit and show buttons, after create) comes from ./navigation.ts, so every schema
 * resource is navigable whether or not the spec gives it paths. The edit asks Reload or Overwrite
 * when someone else saved the record meanwhile (./conflict/). Their forms come from ./forms/: the
 * server's errors beside the fields (the others in a notification) and a question before unsaved
 * changes are left.
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
  SimpleShowLayout,
  Toolbar,
  TopToolbar,
  useRecordContext,
  useResourceContext,
} from 'react-admin';
import { pageSizeFor } from '../auth/session.ts';
import { useArea } from '../shell/area.ts';
import type { ResourceModel } from '../schema/model.ts';
import { ConflictGuard } from './conflict/ConflictGuard.tsx';
import { fieldFor, listFields, prefetchMeta } from './fields.tsx';
import { SimpleForm } from './forms/forms.tsx';
import { filtersFor, inputFor } from './inputs.tsx';
import { type Navigation, navigationOf } from './navigation.ts';
import { HistoryButton } from './history/HistoryButton.tsx';
import { getModel } from './registry.ts';

function useModel(): ResourceModel {
  const resource = useResourceContext();
  if (!resource) throw new Error('A generic view needs a resource context');
  return getModel(resource);
}

/** Where this resource's views lead in the current area. */
function useNavigation(model: ResourceModel): Navigation {
  return navigationOf(useArea(), model.name);
}

export function GenericList() {
  const model = useModel();
  const navigation = useNavigation(model);
  const sort = model.resource.defaultSort ?? { field: 'id', order: 'ASC' as const };
  return (
    <List
      filters={filtersFor(model)}
      sort={sort}
      perPage={pageSizeFor(model.name)}
      queryOptions={{ meta: prefetchMeta(listFields(model)) }}
    >
      <Datagrid rowClick={(id) => navigation.rowLink(id)} bulkActionButtons={false}>
        {listFields(model).map((field) => fieldFor(model, field, { inList: true }))}
        <EditLink navigation={navigation} />
      </Datagrid>
    </List>
  );
}

/** The record's edit button, where the area has an edit view (react-admin checks the right). */
function EditLink({ navigation }: { navigation: Navigation }) {
  const record = useRecordContext();
  const to = record ? navigation.editLink(record.id) : undefined;
  return to ? <EditButton to={to} /> : null;
}

/** The record's show button, where the area has a show view. */
function ShowLink({ navigation }: { navigation: Navigation }) {
  const record = useRecordContext();
  const to = record ? navigation.showLink(record.id) : undefined;
  return to ? <ShowButton to={to} /> : null;
}

export function GenericShow() {
  const model = useModel();
  const navigation = useNavigation(model);
  return (
    <Show
      actions={
        <TopToolbar>
          <HistoryButton resource={model.name} />
          <EditLink navigation={navigation} />
        </TopToolbar>
      }
    >
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
  const navigation = useNavigation(model);
  // Pessimistic: the server's answer (its field errors, a version conflict) arrives before the
  // form closes.
  return (
    <Edit
      mutationMode="pessimistic"
      actions={
        <TopToolbar>
          <ShowLink navigation={navigation} />
        </TopToolbar>
      }
    >
      <ConflictGuard>
        <GenericForm model={model} />
      </ConflictGuard>
    </Edit>
  );
}

export function GenericCreate() {
  const model = useModel();
  const navigation = useNavigation(model);
  return (
    <Create redirect={(_resource, id) => navigation.afterCreate(id)}>
      <GenericForm model={model} />
    </Create>
  );
}
