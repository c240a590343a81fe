/**
 * Exports the contracts of the current list as CSV (contract-simple-export): the list's filters
 * (its fixed ones too: contract type, broker-mandate product, work location), search and sort, sent
 * as the list sends them (the data provider's listQuery) to `GET /api/contracts/export`; the server
 * streams the contracts the user sees and the browser saves the file. Shown only to users holding
 * the permission (the server checks it anyway).
 */
import DownloadIcon from '@mui/icons-material/Download';
import { useState } from 'react';
import { Button, useListContext, useLocale, useNotify, useTranslate } from 'react-admin';
import { getStoredUser } from '../../auth/session.ts';
import { api, messageOf } from '../../dataProvider/apiClient.ts';
import { listQuery } from '../../dataProvider/index.ts';

export function ContractExportButton() {
  const translate = useTranslate();
  const notify = useNotify();
  const locale = useLocale();
  const { filterValues, filter, sort, total } = useListContext();
  const [busy, setBusy] = useState(false);
  if (!(getStoredUser()?.permissions ?? []).includes('contract-simple-export')) return null;

  const run = async () => {
    const query = listQuery({ sort, filter: { ...filterValues, ...filter } });
    // Headers and values in the language on screen.
    query.set('language', locale);
    setBusy(true);
    try {
      await api.download(`contracts/export?${query}`, 'contracts.csv');
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button
      label={translate('app.contractExport.button')}
      onClick={run}
      disabled={busy || total === 0}
      data-testid="contract-export-csv"
    >
      <DownloadIcon />
    </Button>
  );
}
