/** Loads every `schemas/<resource>.schema.json` into resource models (server and scripts). */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildResourceModel,
  type JsonSchema,
  type ResourceModel,
  referenceFilterProblems,
} from '../src/schema/model.ts';

export const SCHEMAS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'schemas');

export function readSchemaFiles(dir = SCHEMAS_DIR): JsonSchema[] {
  return fs
    .readdirSync(dir)
    .filter((file) => file.endsWith('.schema.json'))
    .sort()
    .map((file) => {
      const schema = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as JsonSchema;
      if (`${schema.$id}.schema.json` !== file) {
        throw new Error(`${file}: $id must be "${file.replace('.schema.json', '')}"`);
      }
      return schema;
    });
}

export function loadResourceModels(dir = SCHEMAS_DIR): ResourceModel[] {
  const models = readSchemaFiles(dir).map(buildResourceModel);
  const names = new Set(models.map((model) => model.name));
  for (const model of models) {
    for (const field of model.fields) {
      if (field.reference && !names.has(field.reference)) {
        throw new Error(
          `${model.name}.${field.name}: x-reference to unknown resource ${field.reference}`,
        );
      }
    }
  }
  const problems = referenceFilterProblems(models);
  if (problems.length > 0) throw new Error(problems.join('\n'));
  return models;
}
