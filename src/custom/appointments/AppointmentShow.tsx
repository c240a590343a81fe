/** Placeholder until the issue-15 screen lands: the generic view. */
import { GenericShow } from '../../resources/views.tsx';

export default GenericShow;
