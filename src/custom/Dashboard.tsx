/**
 * The area's start page: what a user needs first thing in the morning, from the data that exists —
 * unread notifications, the size of the books they may see, and recent activity (the newest
 * customers they may see), today's appointments, reminders due and missing feedbacks
 * (src/custom/tasks/DashboardWork.tsx). Later features add their tiles here (leads) through
 * DASHBOARD_TILES.
 */
import {
  Card,
  CardActionArea,
  CardContent,
  Grid,
  List,
  ListItemButton,
  ListItemText,
  Typography,
} from '@mui/material';
import { Link } from 'react-router-dom';
import { Title, useGetIdentity, useGetList, useLocale, useTranslate } from 'react-admin';
import { getStoredUser } from '../auth/session.ts';
import { formatDate } from '../i18n/format.ts';
import { representRecord } from '../resources/labels.ts';
import { getModel, hasModel } from '../resources/registry.ts';
import { useArea } from '../shell/area.ts';
import { type Area, resourceRoute } from '../shell/paths.ts';
import type { Permission } from '../schema/vocabulary.ts';
import type { EstimatedTotal } from '../dataProvider/index.ts';
import { DashboardWork } from './tasks/DashboardWork.tsx';

interface Tile {
  resource: string;
  label: string;
  areas: Area[];
  filter?: (userId: number) => Record<string, unknown>;
  permission?: Permission;
}

export const DASHBOARD_TILES: Tile[] = [
  {
    resource: 'notifications',
    label: 'app.dashboard.unread',
    areas: ['admin', 'consultant'],
    filter: (userId) => ({ userId, readAt_null: true }),
  },
  { resource: 'customers', label: 'app.dashboard.customers', areas: ['admin', 'consultant'] },
  { resource: 'companies', label: 'app.dashboard.companies', areas: ['admin'] },
  { resource: 'lead-sources', label: 'app.dashboard.leadSources', areas: ['admin'] },
  { resource: 'users', label: 'app.dashboard.users', areas: ['admin'], permission: 'manage-users' },
];

/** A tile's count: exact, "≈ 120'000" or "10'000+" for a list too long to count. */
function countText(total: number | undefined, meta: Partial<EstimatedTotal> | undefined): string {
  if (total !== undefined) return total.toLocaleString('de-CH');
  if (typeof meta?.total !== 'number') return '0';
  const shown = meta.total.toLocaleString('de-CH');
  return meta.totalEstimate === 'about' ? `≈ ${shown}` : `${shown}+`;
}

function CountTile({ tile, userId }: { tile: Tile; userId: number }) {
  const translate = useTranslate();
  const area = useArea();
  const { total, meta, isPending, error } = useGetList(tile.resource, {
    pagination: { page: 1, perPage: 1 },
    filter: tile.filter?.(userId) ?? {},
  });
  const target =
    tile.resource === 'notifications'
      ? 'notifications'
      : resourceRoute(area, tile.resource, 'list');
  const content = (
    <CardContent>
      <Typography color="text.secondary" gutterBottom>
        {translate(tile.label)}
      </Typography>
      <Typography variant="h4" component="p" data-testid={`tile-${tile.resource}`}>
        {isPending ? '…' : error ? '–' : countText(total, meta)}
      </Typography>
    </CardContent>
  );
  return (
    <Card sx={{ height: '100%' }}>
      {target ? (
        <CardActionArea component={Link} to={`/${area}/${target}`} sx={{ height: '100%' }}>
          {content}
        </CardActionArea>
      ) : (
        content
      )}
    </Card>
  );
}

/** Recent activity: the newest customers the user may see, linked to their pages. */
function RecentCustomers() {
  const translate = useTranslate();
  const locale = useLocale();
  const area = useArea();
  const { data, isPending } = useGetList('customers', {
    pagination: { page: 1, perPage: 5 },
    sort: { field: 'createdAt', order: 'DESC' },
  });
  const model = getModel('customers');
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {translate('app.dashboard.recentCustomers')}
        </Typography>
        {!isPending && (!data || data.length === 0) ? (
          <Typography color="text.secondary">{translate('app.dashboard.noRecent')}</Typography>
        ) : null}
        <List component="div" dense disablePadding data-testid="recent-customers">
          {(data ?? []).map((record) => (
            <ListItemButton
              key={record.id}
              component={Link}
              to={`/${area}/${resourceRoute(area, 'customers', 'show', record.id) ?? ''}`}
            >
              <ListItemText
                primary={representRecord(model, record)}
                secondary={formatDate(record.createdAt, locale)}
              />
            </ListItemButton>
          ))}
        </List>
      </CardContent>
    </Card>
  );
}

export default function Dashboard() {
  const translate = useTranslate();
  const area = useArea();
  const { identity } = useGetIdentity();
  const permissions = getStoredUser()?.permissions ?? [];
  const tiles = DASHBOARD_TILES.filter(
    (tile) =>
      tile.areas.includes(area) &&
      hasModel(tile.resource) &&
      (!tile.permission || permissions.includes(tile.permission)),
  );
  return (
    <>
      <Title title={translate('app.dashboard.title')} />
      <Typography variant="h5" component="h1" sx={{ mt: 2, mb: 2 }}>
        {translate('app.dashboard.welcome', { name: identity?.fullName ?? '' })}
      </Typography>
      <Grid container spacing={2}>
        {identity
          ? tiles.map((tile) => (
              <Grid key={tile.resource} size={{ xs: 12, sm: 6, md: 4, lg: 3 }}>
                <CountTile tile={tile} userId={Number(identity.id)} />
              </Grid>
            ))
          : null}
      </Grid>
      <Grid container spacing={2} sx={{ mt: 2 }}>
        {hasModel('appointments') && hasModel('reminders') ? <DashboardWork /> : null}
        {hasModel('customers') ? (
          <Grid size={{ xs: 12, md: 6 }}>
            <RecentCustomers />
          </Grid>
        ) : null}
      </Grid>
    </>
  );
}
