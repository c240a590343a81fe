/**
 * Keys the app did not find in the chosen language (src/i18n/missing.ts): those every signed-in
 * user's browser reported (GET /api/localizations/missing; a report disappears once the key has a
 * text in that language) and those this browser met since the page loaded.
 */
import DeleteSweepIcon from '@mui/icons-material/DeleteSweep';
import {
  Box,
  Button,
  Link,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useLocale, useNotify, useTranslate } from 'react-admin';
import { TablePager } from '../../components/Pagers.tsx';
import { formatDateTime } from '../../i18n/format.ts';
import {
  useBrowserMissingKeys,
  useClearMissingReports,
  useLanguages,
  useMissingReports,
} from './useLocalizationData.ts';

const PER_PAGE = 25;

function KeyLink({
  translationKey,
  onShowKey,
}: {
  translationKey: string;
  onShowKey: (key: string) => void;
}) {
  return (
    <Link
      component="button"
      type="button"
      onClick={() => onShowKey(translationKey)}
      sx={{ fontFamily: 'monospace', textAlign: 'left', wordBreak: 'break-all' }}
    >
      {translationKey}
    </Link>
  );
}

export function MissingKeysPanel({ onShowKey }: { onShowKey: (key: string) => void }) {
  const translate = useTranslate();
  const locale = useLocale();
  const notify = useNotify();
  const languages = useLanguages();
  const [page, setPage] = useState(0);
  const reports = useMissingReports(page + 1, PER_PAGE);
  const clear = useClearMissingReports();
  const browser = useBrowserMissingKeys();
  const languageName = (id: number) => {
    const abbreviation = languages.find((language) => language.id === id)?.abbreviation;
    return abbreviation ? translate(`app.languageNames.${abbreviation}`) : String(id);
  };
  const rows = reports.data?.data ?? [];

  return (
    <Box sx={{ p: 2 }}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate('app.translationKeys.reported.intro')}
      </Typography>

      <Box sx={{ display: 'flex', alignItems: 'center', mb: 1 }}>
        <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
          {translate('app.translationKeys.reported.server')}
        </Typography>
        <Button
          startIcon={<DeleteSweepIcon />}
          disabled={rows.length === 0 || clear.isPending}
          onClick={() =>
            clear.mutate(undefined, {
              onSuccess: () => notify('app.translationKeys.reported.cleared', { type: 'info' }),
              onError: () => notify('ra.notification.http_error', { type: 'error' }),
            })
          }
        >
          {translate('app.translationKeys.reported.clear')}
        </Button>
      </Box>
      <Table size="small" data-testid="reported-missing">
        <TableHead>
          <TableRow>
            <TableCell>{translate('app.translationKeys.key')}</TableCell>
            <TableCell>{translate('app.translationKeys.reported.language')}</TableCell>
            <TableCell align="right">{translate('app.translationKeys.reported.count')}</TableCell>
            <TableCell>{translate('app.translationKeys.reported.lastSeen')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.id}>
              <TableCell>
                {row.translationKeyId ? (
                  <KeyLink translationKey={row.translationKey} onShowKey={onShowKey} />
                ) : (
                  <Box component="span" sx={{ fontFamily: 'monospace' }}>
                    {row.translationKey}{' '}
                    <Typography component="span" variant="caption" color="error">
                      {translate('app.translationKeys.reported.unknownKey')}
                    </Typography>
                  </Box>
                )}
              </TableCell>
              <TableCell>{languageName(row.languageId)}</TableCell>
              <TableCell align="right">{row.count}</TableCell>
              <TableCell>{formatDateTime(row.lastSeenAt, locale)}</TableCell>
            </TableRow>
          ))}
          {!reports.isPending && rows.length === 0 && (
            <TableRow>
              <TableCell colSpan={4}>
                <Typography color="text.secondary">
                  {translate('app.translationKeys.reported.none')}
                </Typography>
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
      {(reports.data?.meta.total ?? 0) > PER_PAGE && (
        <TablePager
          count={reports.data?.meta.total ?? 0}
          page={page}
          onPageChange={(_event, next) => setPage(next)}
          rowsPerPage={PER_PAGE}
          rowsPerPageOptions={[PER_PAGE]}
        />
      )}

      <Typography variant="h6" component="h2" sx={{ mt: 4, mb: 1 }}>
        {translate('app.translationKeys.reported.browser')}
      </Typography>
      <Table size="small" data-testid="browser-missing">
        <TableHead>
          <TableRow>
            <TableCell>{translate('app.translationKeys.key')}</TableCell>
            <TableCell>{translate('app.translationKeys.reported.language')}</TableCell>
            <TableCell>{translate('app.translationKeys.reported.shown')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {browser.map((entry) => (
            <TableRow key={`${entry.language}:${entry.key}`}>
              <TableCell>
                <KeyLink translationKey={entry.key} onShowKey={onShowKey} />
              </TableCell>
              <TableCell>{translate(`app.languageNames.${entry.language}`)}</TableCell>
              <TableCell>{translate(`app.translationKeys.shown.${entry.shown}`)}</TableCell>
            </TableRow>
          ))}
          {browser.length === 0 && (
            <TableRow>
              <TableCell colSpan={3}>
                <Typography color="text.secondary">
                  {translate('app.translationKeys.reported.none')}
                </Typography>
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </Box>
  );
}
