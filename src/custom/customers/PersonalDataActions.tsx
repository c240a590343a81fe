/**
 * The customer's personal-data requests (nFADP), for admins: export everything stored about the
 * customer as one zip, and erase the customer on request after a confirmation (the server keeps
 * and pseudonymises what the law requires; docs/ARCHITECTURE.md "Personal-data requests").
 */
import DeleteForeverIcon from '@mui/icons-material/DeleteForever';
import DownloadIcon from '@mui/icons-material/Download';
import { useState } from 'react';
import {
  Button,
  Confirm,
  useNotify,
  useRecordContext,
  useRedirect,
  useTranslate,
} from 'react-admin';
import { getStoredUser } from '../../auth/session.ts';
import { api, messageOf } from '../../dataProvider/apiClient.ts';
import type { ApiRecord } from '../../resources/records.ts';
import { customerName } from './model.ts';

export const canAnswerPersonalData = (): boolean => getStoredUser()?.role === 'ADMIN';

export function PersonalDataActions() {
  const record = useRecordContext<ApiRecord<'customers'>>();
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!record || !canAnswerPersonalData()) return null;

  const exportData = async () => {
    setBusy(true);
    try {
      await api.download(
        `customers/${record.id}/personal-data`,
        `personal-data-customers-${record.id}.zip`,
      );
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const erase = async () => {
    setBusy(true);
    try {
      await api.json('POST', `customers/${record.id}/erase`);
      setConfirming(false);
      notify('app.customers.personal_data.erased', { type: 'success' });
      redirect('list', 'customers');
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        label="app.customers.personal_data.export"
        onClick={exportData}
        disabled={busy}
        data-testid="personal-data-export"
      >
        <DownloadIcon />
      </Button>
      <Button
        label="app.customers.personal_data.erase"
        onClick={() => setConfirming(true)}
        disabled={busy}
        color="error"
        data-testid="personal-data-erase"
      >
        <DeleteForeverIcon />
      </Button>
      <Confirm
        isOpen={confirming}
        loading={busy}
        title="app.customers.personal_data.confirm_title"
        content={translate('app.customers.personal_data.confirm_content', {
          name: customerName(record),
        })}
        confirm="app.customers.personal_data.erase"
        confirmColor="warning"
        onConfirm={erase}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
