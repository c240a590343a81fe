import { NotFoundPage } from './PublicPages.tsx';

export default function NotFoundRoute() {
  return <NotFoundPage />;
}
