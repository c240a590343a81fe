/**
 * The toggle between two or more views of one list (appointments: calendar or list; leads: board
 * or list), icons with their names as tooltip and accessible label. The preference the choice is
 * kept in is the caller's.
 */
import { ToggleButton, ToggleButtonGroup, Tooltip } from '@mui/material';
import type { ReactElement } from 'react';
import { useTranslate } from 'react-admin';

export interface ViewOption<V extends string> {
  value: V;
  /** Translation key of its name. */
  label: string;
  icon: ReactElement;
}

export function ViewSwitch<V extends string>({
  view,
  onChange,
  options,
  label,
  testIdPrefix,
}: {
  view: V;
  onChange: (view: V) => void;
  options: readonly ViewOption<V>[];
  /** Translation key of the group's accessible name. */
  label: string;
  /** `<prefix>-<value>` names each button for tests. */
  testIdPrefix: string;
}) {
  const translate = useTranslate();
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={view}
      onChange={(_event, next: V | null) => {
        if (next) onChange(next);
      }}
      aria-label={translate(label)}
    >
      {options.map((option) => (
        <ToggleButton
          key={option.value}
          value={option.value}
          aria-label={translate(option.label)}
          data-testid={`${testIdPrefix}-${option.value}`}
        >
          <Tooltip title={translate(option.label)}>{option.icon}</Tooltip>
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
