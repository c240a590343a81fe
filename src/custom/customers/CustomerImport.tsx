/** CSV import of customers (back office): the import screen (src/custom/import/) for customers. */
import { CUSTOMER_IMPORT } from '../import/config.ts';
import { ImportPage } from '../import/ImportPage.tsx';

export default function CustomerImport() {
  return <ImportPage config={CUSTOMER_IMPORT} />;
}
