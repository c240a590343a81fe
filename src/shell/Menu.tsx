/** The area's menu, grouped as a brokerage works, from the route table (src/routes.tsx). */
import { Box } from '@mui/material';
import { Menu, useTranslate } from 'react-admin';
import { getStoredUser } from '../auth/session.ts';
import { MENU_GROUPS, routesOf } from '../routes.tsx';
import { useArea } from './area.ts';

export function AreaMenu() {
  const translate = useTranslate();
  const area = useArea();
  const permissions = getStoredUser()?.permissions ?? [];
  const entries = routesOf(area).filter(
    (entry) => entry.menu && (!entry.permission || permissions.includes(entry.permission)),
  );
  return (
    <Menu>
      {MENU_GROUPS.map((group) => {
        const items = entries.filter((entry) => entry.menu?.group === group);
        if (items.length === 0) return null;
        return (
          <Box key={group} component="nav" aria-label={translate(`app.menu.group.${group}`)}>
            <Box
              sx={{
                px: 2,
                pt: 1.5,
                pb: 0.5,
                typography: 'overline',
                color: 'text.secondary',
                lineHeight: 1.5,
              }}
            >
              {translate(`app.menu.group.${group}`)}
            </Box>
            {items.map((entry) => {
              const Icon = entry.menu!.icon;
              return (
                <Menu.Item
                  key={entry.path}
                  to={`/${area}/${entry.path}`}
                  primaryText={translate(entry.menu!.label)}
                  leftIcon={<Icon />}
                />
              );
            })}
          </Box>
        );
      })}
    </Menu>
  );
}
