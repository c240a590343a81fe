/**
 * /admin/translation-keys (permission manage-translation-keys): every translation key with its
 * four texts side by side; search (key or text), paging, missing texts highlighted and filterable
 * (in any language or in one); a row opens a drawer to edit the four texts, saved through
 * PUT /api/localizations/translations/{id}, after which the lists and the app's texts refresh.
 * A second tab lists the keys the app reported missing (./MissingKeysPanel.tsx).
 */
import EditIcon from '@mui/icons-material/Edit';
import {
  Alert,
  Box,
  Card,
  Chip,
  FormControlLabel,
  IconButton,
  LinearProgress,
  MenuItem,
  Switch,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tabs,
  TextField,
  Typography,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { Title, useTranslate } from 'react-admin';
import { TablePager } from '../../components/Pagers.tsx';
import type { TranslationEntry } from '../../i18n/api.ts';
import { EditTranslationDrawer } from './EditTranslationDrawer.tsx';
import { MissingKeysPanel } from './MissingKeysPanel.tsx';
import {
  type KeyFilter,
  useBrowserMissingKeys,
  useLanguages,
  useTranslationEntries,
} from './useLocalizationData.ts';

const PAGE_SIZES = [25, 50, 100];
const SEARCH_DELAY_MS = 300;
function useDebounced<T>(value: T, delay: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

function KeysTable({ search, setSearch }: { search: string; setSearch: (value: string) => void }) {
  const translate = useTranslate();
  const languages = useLanguages();
  const [perPage, setPerPage] = useState(PAGE_SIZES[0]);
  const [missing, setMissing] = useState(false);
  const [missingLanguageId, setMissingLanguageId] = useState<number | ''>('');
  const [editing, setEditing] = useState<TranslationEntry | null>(null);
  const debouncedSearch = useDebounced(search, SEARCH_DELAY_MS);
  // Another search or filter starts again on the first page.
  const filterKey = JSON.stringify([debouncedSearch, missing, missingLanguageId, perPage]);
  const [paging, setPaging] = useState({ filterKey, page: 0 });
  const page = paging.filterKey === filterKey ? paging.page : 0;
  const setPage = (next: number) => setPaging({ filterKey, page: next });

  const filter: KeyFilter = {
    page: page + 1,
    perPage,
    search: debouncedSearch,
    missing,
    missingLanguageId: missingLanguageId === '' ? undefined : missingLanguageId,
  };
  const { data, isPending, isFetching, error } = useTranslationEntries(filter);
  const entries = data?.data ?? [];
  const total = data?.meta.total ?? 0;

  return (
    <>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', p: 2 }}>
        <TextField
          type="search"
          size="small"
          label={translate('app.translationKeys.search')}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          sx={{ minWidth: 280, flex: 1, maxWidth: 480 }}
          slotProps={{ htmlInput: { 'data-testid': 'translation-search' } }}
        />
        <FormControlLabel
          control={
            <Switch checked={missing} onChange={(event) => setMissing(event.target.checked)} />
          }
          label={translate('app.translationKeys.missingOnly')}
        />
        {missing && (
          <TextField
            select
            size="small"
            label={translate('app.translationKeys.missingIn')}
            value={missingLanguageId}
            onChange={(event) =>
              setMissingLanguageId(event.target.value === '' ? '' : Number(event.target.value))
            }
            sx={{ minWidth: 180 }}
          >
            <MenuItem value="">{translate('app.translationKeys.anyLanguage')}</MenuItem>
            {languages.map((language) => (
              <MenuItem key={language.id} value={language.id}>
                {translate(`app.languageNames.${language.abbreviation}`)}
              </MenuItem>
            ))}
          </TextField>
        )}
      </Box>
      <Box sx={{ height: 4 }}>{isFetching && <LinearProgress />}</Box>
      {error ? (
        <Alert severity="error" sx={{ m: 2 }}>
          {translate((error as Error).message || 'ra.notification.http_error')}
        </Alert>
      ) : null}
      <TableContainer>
        <Table size="small" aria-label={translate('app.translationKeys.title')}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: '22%' }}>{translate('app.translationKeys.key')}</TableCell>
              {languages.map((language) => (
                <TableCell key={language.id} lang={language.abbreviation}>
                  {translate(`app.languageNames.${language.abbreviation}`)}
                </TableCell>
              ))}
              <TableCell padding="checkbox" />
            </TableRow>
          </TableHead>
          <TableBody>
            {entries.map((entry) => (
              <TableRow
                key={entry.id}
                hover
                data-key={entry.translationKey}
                onClick={() => setEditing(entry)}
                sx={{ cursor: 'pointer', verticalAlign: 'top' }}
              >
                <TableCell sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
                  {entry.translationKey}
                </TableCell>
                {languages.map((language) => {
                  const text =
                    entry.translations.find((item) => item.languageId === language.id) ?? null;
                  const isMissing = !text || text.text === '';
                  return (
                    <TableCell
                      key={language.id}
                      lang={language.abbreviation}
                      data-language={language.abbreviation}
                      data-missing={isMissing ? 'true' : 'false'}
                      sx={
                        isMissing
                          ? { bgcolor: 'warning.light', color: 'warning.contrastText' }
                          : { whiteSpace: 'pre-wrap' }
                      }
                    >
                      {isMissing ? (
                        <Chip
                          size="small"
                          color="warning"
                          label={translate('app.translationKeys.missing')}
                        />
                      ) : (
                        <>
                          {text.text}
                          {text.editedAt ? (
                            <Chip
                              size="small"
                              variant="outlined"
                              label={translate('app.translationKeys.edited')}
                              sx={{ ml: 1 }}
                            />
                          ) : null}
                        </>
                      )}
                    </TableCell>
                  );
                })}
                <TableCell padding="checkbox">
                  <IconButton
                    size="small"
                    aria-label={translate('ra.action.edit')}
                    onClick={(event) => {
                      event.stopPropagation();
                      setEditing(entry);
                    }}
                  >
                    <EditIcon fontSize="small" />
                  </IconButton>
                </TableCell>
              </TableRow>
            ))}
            {!isPending && entries.length === 0 && (
              <TableRow>
                <TableCell colSpan={languages.length + 2}>
                  <Typography color="text.secondary">
                    {translate('app.translationKeys.empty')}
                  </Typography>
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePager
        count={total}
        page={Math.min(page, Math.max(0, Math.ceil(total / perPage) - 1))}
        onPageChange={(_event, next) => setPage(next)}
        rowsPerPage={perPage}
        rowsPerPageOptions={PAGE_SIZES}
        onRowsPerPageChange={(event) => setPerPage(Number(event.target.value))}
      />
      <EditTranslationDrawer
        key={editing?.id ?? 'closed'}
        entry={editing}
        languages={languages}
        onClose={() => setEditing(null)}
      />
    </>
  );
}

export default function TranslationKeysPage() {
  const translate = useTranslate();
  const [tab, setTab] = useState<'keys' | 'missing'>('keys');
  const [search, setSearch] = useState('');
  const browserMissing = useBrowserMissingKeys();
  return (
    <Box sx={{ mt: 1 }}>
      <Title title="app.translationKeys.title" />
      <Card>
        <Tabs value={tab} onChange={(_event, value) => setTab(value)} sx={{ px: 2 }}>
          <Tab value="keys" label={translate('app.translationKeys.tabs.keys')} />
          <Tab
            value="missing"
            label={translate('app.translationKeys.tabs.reported', {
              number: browserMissing.length,
            })}
          />
        </Tabs>
        {tab === 'keys' ? (
          <KeysTable search={search} setSearch={setSearch} />
        ) : (
          <MissingKeysPanel
            onShowKey={(key) => {
              setSearch(key);
              setTab('keys');
            }}
          />
        )}
      </Card>
    </Box>
  );
}
