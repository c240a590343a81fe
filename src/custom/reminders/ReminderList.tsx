/** Placeholder until the issue-15 screen lands: the generic view. */
import { GenericList } from '../../resources/views.tsx';

export default GenericList;
