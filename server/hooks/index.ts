/** Hooks by resource name (see server/hooks.ts). A resource without an entry has none. */
import type { ResourceHooks } from '../hooks.ts';

export const RESOURCE_HOOKS: Record<string, ResourceHooks> = {};
