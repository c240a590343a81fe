/**
 * The area's menu, grouped as a brokerage works, from the route table (src/routes.tsx).
 *
 * It has to fit a 768 px high screen: each group folds (its header is a button; what is folded is
 * kept in this browser, the group of the open page always shows), the sidebar scrolls
 * (src/theme.ts), and a long label wraps onto a second line rather than being cut. With the
 * sidebar closed (icons only) the headers give way to dividers and every entry shows, named by
 * its tooltip.
 */
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { Box, ButtonBase, Collapse, Divider } from '@mui/material';
import { useState } from 'react';
import { Menu, useSidebarState, useTranslate } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { getStoredUser } from '../auth/session.ts';
import { MENU_GROUPS, type MenuGroup, mayOpen, routesOf } from '../routes.tsx';
import { useArea } from './area.ts';
import { preloadEntry } from './preloadEntry.ts';

const FOLDED_KEY = 'menu.folded';

function readFolded(): MenuGroup[] {
  try {
    const stored: unknown = JSON.parse(globalThis.localStorage?.getItem(FOLDED_KEY) ?? '[]');
    return Array.isArray(stored) ? MENU_GROUPS.filter((group) => stored.includes(group)) : [];
  } catch {
    return [];
  }
}

function writeFolded(groups: MenuGroup[]): void {
  try {
    globalThis.localStorage?.setItem(FOLDED_KEY, JSON.stringify(groups));
  } catch {
    // Storage refused: the choice lasts for this page.
  }
}

export function AreaMenu() {
  const translate = useTranslate();
  const area = useArea();
  const { pathname } = useLocation();
  const [sidebarOpen] = useSidebarState();
  const [folded, setFolded] = useState<MenuGroup[]>(readFolded);
  const user = getStoredUser();
  const entries = routesOf(area).filter((entry) => entry.menu && mayOpen(entry, user));
  const toggle = (group: MenuGroup) => {
    const next = folded.includes(group)
      ? folded.filter((candidate) => candidate !== group)
      : [...folded, group];
    setFolded(next);
    writeFolded(next);
  };
  return (
    // Each group's entries are a menu of their own, its fold button beside it (axe: a menu holds
    // only menu items), so react-admin's outer list is presentational (and so not focusable).
    <Menu sx={{ pb: 2 }} role="none" tabIndex={undefined}>
      {MENU_GROUPS.map((group, index) => {
        const items = entries.filter((entry) => entry.menu?.group === group);
        if (items.length === 0) return null;
        const label = translate(`app.menu.group.${group}`);
        const current = items.some((entry) => pathname.startsWith(`/${area}/${entry.path}`));
        const open = !sidebarOpen || current || !folded.includes(group);
        const listId = `menu-group-${group}`;
        return (
          <Box key={group} component="nav" aria-label={label} data-testid={listId}>
            {sidebarOpen ? (
              <ButtonBase
                onClick={() => toggle(group)}
                aria-expanded={open}
                aria-controls={listId + '-items'}
                disabled={current}
                sx={{
                  width: '100%',
                  justifyContent: 'space-between',
                  textAlign: 'left',
                  px: 2,
                  pt: 1.5,
                  pb: 0.5,
                  typography: 'overline',
                  color: 'text.secondary',
                  lineHeight: 1.5,
                }}
              >
                <span>{label}</span>
                {current ? null : open ? (
                  <ExpandLessIcon fontSize="small" />
                ) : (
                  <ExpandMoreIcon fontSize="small" />
                )}
              </ButtonBase>
            ) : index > 0 ? (
              <Divider sx={{ my: 0.5 }} />
            ) : null}
            <Collapse in={open} id={listId + '-items'} role="menu" aria-label={label}>
              {items.map((entry) => {
                const Icon = entry.menu!.icon;
                return (
                  <Menu.Item
                    key={entry.path}
                    to={`/${area}/${entry.path}`}
                    primaryText={translate(entry.menu!.label)}
                    leftIcon={<Icon />}
                    onPointerEnter={() => preloadEntry(entry)}
                    onFocus={() => preloadEntry(entry)}
                    sx={{
                      whiteSpace: 'normal',
                      '& .MuiTypography-noWrap': { whiteSpace: 'normal', lineHeight: 1.3 },
                    }}
                  />
                );
              })}
            </Collapse>
          </Box>
        );
      })}
    </Menu>
  );
}
