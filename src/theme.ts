import { createElement } from 'react';
import { defaultTheme, type RaThemeOptions } from 'react-admin';
import { DeferredListCard } from './components/DeferredList.tsx';
import { ListPagination } from './components/Pagers.tsx';

/**
 * The app's theme. Beyond colours it fixes what every screen shares at 1366 and 1024 px:
 * - every list's pager is translated with Swiss numbers (src/components/Pagers.tsx);
 * - a list's rows and pager render in the background when its page arrives (no long task;
 *   src/components/DeferredList.tsx);
 * - the side menu scrolls with a visible scroll bar when it is taller than the screen
 *   (react-admin hides that bar, so the last entries looked cut off);
 * - a list wider than its card scrolls sideways inside the card instead of widening the page;
 * - a reference loading in a list cell does not widen its column (no layout shift).
 */
export const theme: RaThemeOptions = {
  ...defaultTheme,
  palette: { primary: { main: '#1f4e79' }, secondary: { main: '#2e7d32' } },
  sidebar: { width: 230, closedWidth: 56 },
  components: {
    ...defaultTheme.components,
    RaList: {
      // Rows and pager render in the background when a page arrives (components/DeferredList.tsx).
      defaultProps: { pagination: createElement(ListPagination), component: DeferredListCard },
      // The list's column may shrink below its table's width (the table then scrolls).
      styleOverrides: { root: { '& .RaList-main': { minWidth: 0 } } },
    },
    RaSidebar: {
      styleOverrides: {
        root: {
          '& .RaSidebar-fixed': {
            overflowY: 'auto',
            scrollbarWidth: 'thin',
            '&::-webkit-scrollbar': { display: 'block', width: 6 },
          },
        },
      },
    },
    // Initials on a photo-less avatar: MUI's grey 400 under white text is 1.9:1; grey 700 is 6:1
    // (WCAG AA, axe color-contrast).
    MuiAvatar: { styleOverrides: { colorDefault: { backgroundColor: '#616161' } } },
    RaDatagrid: {
      styleOverrides: { root: { '& .RaDatagrid-tableWrapper': { overflowX: 'auto' } } },
    },
    // A reference still loading in a list cell: a short bar, not react-admin's 160 px one, which
    // widened its column and wrapped the others' texts until the name came (layout shift).
    RaLinearProgress: { styleOverrides: { root: { 'td &': { width: 40 } } } },
  },
};
