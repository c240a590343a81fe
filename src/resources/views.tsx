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
  type Identifier,
  List,
  SaveButton,
  Show,
  ShowButton,
  SimpleForm,
  SimpleShowLayout,
  Toolbar,
  TopToolbar,
  useRecordContext,
  useResourceContext,
} from 'react-admin';
import { pageSizeFor } from '../auth/session.ts';
import { resourceRoute, type ViewKind } from '../routes.tsx';
import { useArea } from '../shell/area.ts';
import type { ResourceModel } from '../schema/model.ts';
import { fieldFor, listFields } from './fields.tsx';
import { filtersFor, inputFor } from './inputs.tsx';
import { getModel } from './registry.ts';

function useModel(): ResourceModel {
  const resource = useResourceContext();
  if (!resource) throw new Error('A generic view needs a resource context');
  return getModel(resource);
}

/** Paths of this resource's views in the current area (the spec's paths, src/routes.tsx). */
function usePaths(model: ResourceModel) {
  const area = useArea();
  return (view: ViewKind, id?: Identifier) => resourceRoute(area, model.name, view, id);
}

export function GenericList() {
  const model = useModel();
  const area = useArea();
  const pathOf = usePaths(model);
  const sort = model.resource.defaultSort ?? { field: 'id', order: 'ASC' as const };
  const showPath = (id: Identifier) => pathOf('show', id) ?? pathOf('edit', id);
  return (
    <List filters={filtersFor(model)} sort={sort} perPage={pageSizeFor(model.name)}>
      <Datagrid
        rowClick={(id) => {
          const path = showPath(id);
          return path ? `/${area}/${path}` : false;
        }}
        bulkActionButtons={false}
      >
        {listFields(model).map((field) => fieldFor(model, field, { inList: true }))}
        <EditLink pathOf={pathOf} />
      </Datagrid>
    </List>
  );
}

function EditLink({ pathOf }: { pathOf: ReturnType<typeof usePaths> }) {
  const area = useArea();
  const record = useRecordContext();
  const path = record ? pathOf('edit', record.id) : undefined;
  return path ? <EditButton to={`/${area}/${path}`} /> : null;
}

export function GenericShow() {
  const model = useModel();
  const pathOf = usePaths(model);
  return (
    <Show
      actions={
        <TopToolbar>
          <EditLink pathOf={pathOf} />
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
  const hasShow = usePaths(model)('show', 0) !== undefined;
  // Pessimistic: the server's answer (and its field errors) arrives before the form closes.
  return (
    <Edit
      mutationMode="pessimistic"
      actions={<TopToolbar>{hasShow ? <ShowButton /> : null}</TopToolbar>}
    >
      <GenericForm model={model} />
    </Edit>
  );
}

export function GenericCreate() {
  const model = useModel();
  const pathOf = usePaths(model);
  return (
    <Create redirect={(_resource, id) => pathOf('show', id) ?? pathOf('list') ?? ''}>
      <GenericForm model={model} />
    </Create>
  );
}
