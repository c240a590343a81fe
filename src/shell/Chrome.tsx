/**
 * Global chrome shown on every page: the environment strip, the thin progress bar on route changes
 * and while data loads, and the Ctrl+Shift+G shortcut to the app-elements guide.
 */
import { Box, LinearProgress } from '@mui/material';
import { useIsFetching } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslate } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { type AppEnv, ENV_COLORS, UI } from './config.ts';

export function EnvStrip({ env }: { env: AppEnv }) {
  const color = ENV_COLORS[env];
  if (!color) return null;
  return (
    <Box
      data-testid="env-strip"
      data-env={env}
      aria-hidden
      sx={{ position: 'fixed', top: 0, left: 0, right: 0, height: 4, bgcolor: color, zIndex: 2000 }}
    />
  );
}

/** The bar itself (2 px, green). */
function Bar() {
  const translate = useTranslate();
  return (
    <LinearProgress
      data-testid="route-progress"
      aria-label={translate('ra.page.loading')}
      sx={{
        position: 'fixed',
        top: 0,
        left: 0,
        right: 0,
        height: UI.progress.height,
        zIndex: 2100,
        bgcolor: 'transparent',
        '& .MuiLinearProgress-bar': { bgcolor: UI.progress.color },
      }}
    />
  );
}

/** Shows for a short moment after it mounts: mounted anew (by key) on every route change. */
function NavigationBar() {
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    const timer = setTimeout(() => setVisible(false), 400);
    return () => clearTimeout(timer);
  }, []);
  return visible ? <Bar /> : null;
}

/** Shows on every route change, and as long as queries are fetching. */
export function ProgressBar({ fetching = 0 }: { fetching?: number }) {
  const location = useLocation();
  if (fetching > 0) return <Bar />;
  return <NavigationBar key={`${location.pathname}${location.search}`} />;
}

/** A query asked again in the background (the bell's unread count): no progress bar for it. */
export const BACKGROUND_QUERY = { background: true } as const;

/**
 * Inside react-admin (it owns the query client): the bar also runs while data loads, except for
 * queries marked `meta: BACKGROUND_QUERY`.
 */
export function DataProgressBar() {
  return (
    <ProgressBar
      fetching={useIsFetching({ predicate: (query) => query.meta?.background !== true })}
    />
  );
}

/** Ctrl+Shift+G opens the app-elements guide in a new tab, from anywhere. */
export function useGuideShortcut(): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.ctrlKey && event.shiftKey && event.key.toLowerCase() === 'g') {
        event.preventDefault();
        window.open('/app-elements-guide', '_blank', 'noopener');
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
