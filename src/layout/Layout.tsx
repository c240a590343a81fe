/** The app frame: app bar, and a menu grouped by the schemas' x-resource.menu. */
import { Box } from '@mui/material';
import type { ReactNode } from 'react';
import {
  AppBar,
  Menu,
  Layout as RaLayout,
  TitlePortal,
  useResourceDefinitions,
  useTranslate,
} from 'react-admin';
import { MODELS } from '../resources/registry.ts';

const GROUP_ORDER = ['main', 'reference', 'administration'];

function CrmMenu() {
  const translate = useTranslate();
  const definitions = useResourceDefinitions();
  const groups = new Map<string, string[]>();
  for (const model of MODELS) {
    if (!definitions[model.name]?.hasList) continue;
    const group = model.resource.menu ?? 'main';
    groups.set(group, [...(groups.get(group) ?? []), model.name]);
  }
  const ordered = [...groups.entries()].sort(
    ([a], [b]) => GROUP_ORDER.indexOf(a) - GROUP_ORDER.indexOf(b),
  );
  return (
    <Menu>
      <Menu.DashboardItem />
      {ordered.map(([group, names]) => (
        <Box key={group} component="nav" aria-label={translate(`app.menu.${group}`)}>
          <Box sx={{ px: 2, pt: 2, pb: 0.5, typography: 'overline', color: 'text.secondary' }}>
            {translate(`app.menu.${group}`)}
          </Box>
          {names.map((name) => (
            <Menu.ResourceItem key={name} name={name} />
          ))}
        </Box>
      ))}
    </Menu>
  );
}

/** react-admin's app bar: page title, language menu (it has four locales), refresh, user menu. */
function CrmAppBar() {
  return (
    <AppBar color="primary">
      <TitlePortal />
    </AppBar>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  return (
    <RaLayout menu={CrmMenu} appBar={CrmAppBar}>
      {children}
    </RaLayout>
  );
}
