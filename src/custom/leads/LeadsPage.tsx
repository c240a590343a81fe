/**
 * The leads (spec §2 `leads`, both areas; §4 the board): the board or the list, as the user's
 * preference `leadsView` says; the switch above them changes the view and saves the preference
 * (PUT /api/account/settings), so the next visit opens the same. Above both, the filter bar they
 * share (./components.tsx: lead source — only those the role may see —, assignee, status and
 * close reason in the list, creation date range, search; kept per area while the app is open
 * and after), "New lead" and, in the back office's area, the CSV import. What the user may see at all the server decides (the call centre:
 * unassigned leads and its own; a consultant: their own).
 */
import AddIcon from '@mui/icons-material/Add';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Box, Button as MuiButton, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import { useState } from 'react';
import {
  ResourceContextProvider,
  Title,
  useCanAccess,
  useNotify,
  useStore,
  useTranslate,
} from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { getStoredUser, updateStoredUser } from '../../auth/session.ts';
import { api } from '../../dataProvider/apiClient.ts';
import { type Preferences, withDefaults } from '../../schema/preferences.ts';
import { resourceHref } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import { LeadFilterBar, type LeadsView, LeadsViewSwitch } from './components.tsx';
import { LeadBoard } from './LeadBoard.tsx';
import { LeadListView } from './LeadListView.tsx';
import { apiFilter, filtersStoreKey, type LeadFilters } from './filters.ts';

/** Read by screen readers, not shown. */
const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  margin: '-1px',
  padding: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;

function NewLeadButton() {
  const translate = useTranslate();
  const area = useArea();
  const { canAccess } = useCanAccess({ resource: 'leads', action: 'create' });
  const href = resourceHref(area, 'leads', 'create');
  if (!href || canAccess === false) return null;
  return (
    <MuiButton
      component={RouterLink}
      to={href}
      variant="contained"
      size="small"
      startIcon={<AddIcon />}
      data-testid="lead-create"
    >
      {translate('app.leads.new')}
    </MuiButton>
  );
}

/** The CSV import of leads (src/custom/import/), a page of the back office's area. */
function ImportButton() {
  const translate = useTranslate();
  const area = useArea();
  if (area !== 'admin') return null;
  const label = translate('app.customers.import.action');
  return (
    <Tooltip title={label}>
      <IconButton
        component={RouterLink}
        to={`/${area}/leads/import`}
        aria-label={label}
        data-testid="lead-import"
      >
        <UploadFileIcon />
      </IconButton>
    </Tooltip>
  );
}

/** The view by the preference; choosing the other saves it as the preference. */
function useLeadsView(): [LeadsView, (view: LeadsView) => void] {
  const notify = useNotify();
  const [view, setView] = useState<LeadsView>(
    () => withDefaults(getStoredUser()?.preferences).leadsView,
  );
  const choose = (next: LeadsView) => {
    setView(next);
    api
      .json<{ data: Partial<Preferences> & { language?: string } }>('PUT', 'account/settings', {
        body: { leadsView: next },
      })
      .then((answer) => {
        const { language: _language, ...preferences } = answer.data;
        updateStoredUser({ preferences });
      })
      .catch(() => notify('app.leads.view.notSaved', { type: 'warning' }));
  };
  return [view, choose];
}

export default function LeadsPage() {
  const translate = useTranslate();
  const area = useArea();
  const [view, setView] = useLeadsView();
  const [filters, setFilters] = useStore<LeadFilters>(filtersStoreKey(area), {});
  const filter = apiFilter(filters, view);
  return (
    <ResourceContextProvider value="leads">
      {/* The list names the page itself. */}
      {view === 'kanban' ? <Title title={translate('app.menu.leads')} /> : null}
      {/* The page's heading for screen readers (the app bar shows the title). */}
      <Typography component="h1" sx={visuallyHidden}>
        {translate('app.menu.leads')}
      </Typography>
      <Box
        sx={{
          display: 'flex',
          flexDirection: 'column',
          // The board fills the window below the app bar; the list scrolls with the page.
          height: view === 'kanban' ? 'calc(100vh - 72px)' : undefined,
          minHeight: 420,
          pt: 1,
        }}
        data-testid="leads-page"
        data-view={view}
      >
        <Stack
          direction="row"
          spacing={1.5}
          useFlexGap
          sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 1.5 }}
        >
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <LeadFilterBar filters={filters} onChange={setFilters} view={view} />
          </Box>
          <LeadsViewSwitch view={view} onChange={setView} />
          <NewLeadButton />
          <ImportButton />
        </Stack>
        {view === 'kanban' ? <LeadBoard filter={filter} /> : <LeadListView filter={filter} />}
      </Box>
    </ResourceContextProvider>
  );
}
