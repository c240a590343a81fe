/** Placeholder until the issue-15 screen lands. */
import ComingSoon from '../ComingSoon.tsx';
export default function TasksPage() {
  return <ComingSoon feature="tasks" />;
}
