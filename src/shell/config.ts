/** UI constants of the spec (§9) in one place. */
export const UI = {
  /** Notifications disappear after 1.5 s. */
  notificationMs: 1500,
  /** Data is fresh for 5 minutes; no refetch on window focus. */
  staleTimeMs: 5 * 60 * 1000,
  /** Drawer widths. */
  drawer: { large: '35%', medium: '30%' },
  /** Route-change progress bar. */
  progress: { height: 2, color: '#2e7d32' },
} as const;

export type AppEnv = 'dev' | 'staging' | 'local' | 'production';

/** The environment strip's colour; production shows none. */
export const ENV_COLORS: Record<AppEnv, string | undefined> = {
  dev: '#d32f2f',
  staging: '#fbc02d',
  local: '#2e7d32',
  production: undefined,
};

export const isAppEnv = (value: unknown): value is AppEnv =>
  typeof value === 'string' && value in ENV_COLORS;
