/** Hooks by resource name (see server/hooks.ts). A resource without an entry has none. */
import {
  externalUserHooks,
  leadSourceHooks,
  subBrokerHooks,
  subBrokerRuleHooks,
  userHooks,
} from '../account/hooks.ts';
import { customerHooks, documentHooks, householdMemberHooks } from '../customers/hooks.ts';
import type { ResourceHooks } from '../hooks.ts';
import { notificationHooks } from '../notifications/hooks.ts';

export const RESOURCE_HOOKS: Record<string, ResourceHooks> = {
  customers: customerHooks,
  documents: documentHooks,
  'household-members': householdMemberHooks,
  notifications: notificationHooks,
  users: userHooks,
  'external-users': externalUserHooks,
  'sub-brokers': subBrokerHooks,
  'sub-broker-rules': subBrokerRuleHooks,
  'lead-sources': leadSourceHooks,
};
