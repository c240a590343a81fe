/**
 * Every entity schema, read at build time, turned into resource models. Adding a schema file adds
 * its resource here with no further code.
 */
import { buildResourceModel, type JsonSchema, type ResourceModel } from '../schema/model.ts';

const schemaFiles = import.meta.glob<JsonSchema>('../../schemas/*.schema.json', {
  eager: true,
  import: 'default',
});

export const MODELS: ResourceModel[] = Object.values(schemaFiles)
  .map(buildResourceModel)
  .sort((a, b) => a.name.localeCompare(b.name));

const BY_NAME = new Map(MODELS.map((model) => [model.name, model]));

export function getModel(name: string): ResourceModel {
  const model = BY_NAME.get(name);
  if (!model) throw new Error(`No schema for resource "${name}"`);
  return model;
}

export const hasModel = (name: string): boolean => BY_NAME.has(name);
