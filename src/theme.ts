import { defaultTheme, type RaThemeOptions } from 'react-admin';

export const theme: RaThemeOptions = {
  ...defaultTheme,
  palette: { primary: { main: '#1f4e79' }, secondary: { main: '#2e7d32' } },
  sidebar: { width: 230, closedWidth: 56 },
};
