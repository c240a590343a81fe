import { NoAccessPage } from './PublicPages.tsx';

export default function NoAccessRoute() {
  return <NoAccessPage />;
}
