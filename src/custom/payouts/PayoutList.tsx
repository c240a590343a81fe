/** Being written (issue 17). */
import { Title, useTranslate } from 'react-admin';

export default function PayoutList() {
  const translate = useTranslate();
  return <Title title={translate('app.menu.payouts')} />;
}
