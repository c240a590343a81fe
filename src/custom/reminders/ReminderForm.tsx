/** Placeholder until the issue-15 screen lands: the generic views. */
import { GenericCreate, GenericEdit } from '../../resources/views.tsx';
export const ReminderCreate = GenericCreate;
export default GenericEdit;
