/** The area frame: app bar (title, notifications bell, language, refresh, user menu), grouped menu, progress bar. */
import { Slide } from '@mui/material';
import type { ReactElement, ReactNode } from 'react';
import { AppBar, Layout as RaLayout, LoadingPage, TitlePortal } from 'react-admin';
import { DataProgressBar } from '../shell/Chrome.tsx';
import { Deferred } from '../shell/Deferred.tsx';
import { AreaMenu } from '../shell/Menu.tsx';
import { NotificationsBell } from './NotificationsBell.tsx';
import { useAppBarHidden } from './scrollTrigger.ts';
import { Sidebar } from './Sidebar.tsx';

/**
 * react-admin's HideOnScroll with the scroll state of ./scrollTrigger.ts (no look at the scroll
 * position when the frame mounts, which laid the new page out inside its commit).
 */
function HideOnScroll({ children, className }: { children: ReactElement; className?: string }) {
  const hidden = useAppBarHidden();
  return (
    <Slide appear={false} direction="down" in={!hidden} className={className}>
      {children}
    </Slide>
  );
}

/**
 * react-admin's app bar: page title, the notifications bell (unread count), language menu (it has
 * four locales), refresh, user menu.
 */
function CrmAppBar() {
  return (
    <AppBar color="primary" container={HideOnScroll}>
      <TitlePortal />
      <NotificationsBell />
    </AppBar>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  // The frame mounts once the session is checked, all at once: rendered in the background so the
  // page stays responsive (react-admin's loading page meanwhile, as while the session was checked).
  return (
    <Deferred fallback={<LoadingPage />}>
      <RaLayout
        menu={AreaMenu}
        appBar={CrmAppBar}
        sidebar={Sidebar}
        // The page may not grow past the screen to fit its widest content (react-admin's
        // `min-width: fit-content`): a wide table scrolls inside its card (src/theme.ts), the rest
        // wraps, so nothing ends up beyond the right edge of a 1024 px tablet.
        sx={{ minWidth: 0, '& .RaLayout-content': { minWidth: 0 } }}
      >
        <DataProgressBar />
        {/* The page after the frame: two shorter commits (styles, DOM) instead of one long one. */}
        <Deferred>{children}</Deferred>
      </RaLayout>
    </Deferred>
  );
}
