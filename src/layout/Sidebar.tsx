/**
 * react-admin's Sidebar (ra-ui-materialui 5, layout/Sidebar.tsx: the same drawer, class names and
 * theme key `RaSidebar`, so src/theme.ts styles it as before) with the app bar's scroll state from
 * ./scrollTrigger.ts instead of its own useScrollTrigger, which read the scroll position when the
 * frame mounted and so laid the whole page out inside that commit.
 */
import { Drawer, type DrawerProps, type Theme, useMediaQuery } from '@mui/material';
import { styled, useThemeProps } from '@mui/material/styles';
import type { ReactNode } from 'react';
import {
  CLOSED_DRAWER_WIDTH,
  DRAWER_WIDTH,
  SidebarClasses,
  useLocale,
  useSidebarState,
} from 'react-admin';
import { useAppBarHidden } from './scrollTrigger.ts';

const PREFIX = 'RaSidebar';
const OPEN_CLASS = `${PREFIX}-open`;
const CLOSED_CLASS = `${PREFIX}-closed`;

export interface SidebarProps extends DrawerProps {
  appBarAlwaysOn?: boolean;
  children: ReactNode;
  closedSize?: number;
  size?: number;
}

export function Sidebar(inProps: SidebarProps) {
  const props = useThemeProps({ props: inProps, name: PREFIX });
  const { appBarAlwaysOn, children, closedSize: _closed, size: _size, ...rest } = props;
  const isXSmall = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
  const [open, setOpen] = useSidebarState();
  useLocale(); // redrawn when the language changes, as react-admin's
  const trigger = useAppBarHidden();
  const toggleSidebar = () => setOpen(!open);
  return isXSmall ? (
    <StyledDrawer
      variant="temporary"
      open={open}
      onClose={toggleSidebar}
      classes={SidebarClasses}
      {...rest}
    >
      {children}
    </StyledDrawer>
  ) : (
    <StyledDrawer
      variant="permanent"
      open={open}
      onClose={toggleSidebar}
      classes={SidebarClasses}
      className={[
        trigger && !appBarAlwaysOn ? SidebarClasses.appBarCollapsed : '',
        open ? OPEN_CLASS : CLOSED_CLASS,
      ]
        .filter(Boolean)
        .join(' ')}
      {...rest}
    >
      <div className={SidebarClasses.fixed}>{children}</div>
    </StyledDrawer>
  );
}

const widthOf = (theme: Theme, open: boolean | undefined): number => {
  const sidebar = (theme as Theme & { sidebar?: { width?: number; closedWidth?: number } }).sidebar;
  return open ? (sidebar?.width ?? DRAWER_WIDTH) : (sidebar?.closedWidth ?? CLOSED_DRAWER_WIDTH);
};

const StyledDrawer = styled(Drawer, {
  name: PREFIX,
  slot: 'Root',
  overridesResolver: (_props, styles) => styles.root,
  shouldForwardProp: () => true,
})(({ open, theme }) => ({
  height: 'calc(100vh - 3em)',
  marginTop: 0,
  transition: theme.transitions.create('margin', {
    easing: theme.transitions.easing.easeOut,
    duration: theme.transitions.duration.enteringScreen,
  }),
  [`&.${SidebarClasses.appBarCollapsed}`]: {
    // Compensates the app frame's margin rather than removing it in the layout (react-admin's
    // reason: the content without it may revert the scroll trigger, a visual jiggle).
    marginTop: theme.spacing(-6),
    [theme.breakpoints.down('sm')]: { marginTop: theme.spacing(-7) },
    transition: theme.transitions.create('margin', {
      easing: theme.transitions.easing.sharp,
      duration: theme.transitions.duration.leavingScreen,
    }),
  },
  [`& .${SidebarClasses.fixed}`]: {
    position: 'fixed',
    height: 'calc(100vh - 3em)',
    overflowX: 'hidden',
    // No scroll bar (src/theme.ts shows a thin one).
    scrollbarWidth: 'none',
    msOverflowStyle: 'none',
    '&::-webkit-scrollbar': { display: 'none' },
  },
  '& .MuiPaper-root': {
    position: 'relative',
    width: widthOf(theme, open),
    transition: theme.transitions.create('width', {
      easing: theme.transitions.easing.sharp,
      duration: theme.transitions.duration.leavingScreen,
    }),
    backgroundColor: 'transparent',
    borderRight: 'none',
    [theme.breakpoints.only('xs')]: {
      marginTop: 0,
      height: '100vh',
      position: 'inherit',
      backgroundColor: (theme.vars || theme).palette.background.default,
    },
    [theme.breakpoints.up('md')]: { border: 'none' },
    zIndex: 'inherit',
  },
}));
