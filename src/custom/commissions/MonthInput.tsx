/**
 * A month input ('YYYY-MM': a line's or a single payment's period, the lists' period filters) for
 * react-admin forms and filter bars. The MUI X picker loads with the first one that renders
 * (./MonthPicker.tsx), so a page without one does not download it.
 */
import { Box } from '@mui/material';
import { lazy, Suspense } from 'react';
import type { Validator } from 'react-admin';

export interface MonthInputProps {
  source: string;
  label?: string | false;
  validate?: Validator | Validator[];
  helperText?: string | false;
  disabled?: boolean;
  /** In a filter bar: an unfinished month is no filter (not an error). */
  isFilter?: boolean;
  /** Shown in a list's filter bar (react-admin reads it from the element). */
  alwaysOn?: boolean;
  /** data-testid of the text input. */
  testId?: string;
  /** The width of its place (a form's grid cell) instead of a filter's. */
  fullWidth?: boolean;
}

const Picker = lazy(() => import('./MonthPicker.tsx'));

export function MonthInput({ alwaysOn: _alwaysOn, ...props }: MonthInputProps) {
  return (
    <Suspense
      fallback={
        <Box
          aria-busy="true"
          sx={{ height: 48, mt: 1, mb: 0.5, width: props.fullWidth ? '100%' : 190 }}
        />
      }
    >
      <Picker {...props} />
    </Suspense>
  );
}
