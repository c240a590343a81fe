/**
 * A list filter shown as a row of toggle buttons (all / mine / unassigned and the like), placed in
 * the list's filter form (`alwaysOn`) rather than its toolbar.
 *
 * A choice is written into the filter form and, at once, into the list's filters. react-admin's
 * filter form keeps its own copy of the filters and sends all of it, after a pause, whenever one
 * of its inputs changes: a toolbar button that changed only the list's filters was undone by a
 * filter chosen right after it, from the form's old copy. Each choice names its keys, so the keys
 * of the other choices are cleared ('' is dropped from the list's filters). Applied at once, the
 * list does not wait for the form's pause either, which a later filter could race.
 */
import { ToggleButton, ToggleButtonGroup } from '@mui/material';
import { useFormContext, useWatch } from 'react-hook-form';
import { useListContext, useTranslate } from 'react-admin';

export interface ToggleFilterChoice {
  id: string;
  /** Translation key of the button. */
  label: string;
  /** The filter values this choice stands for; keys left out are cleared. */
  values: Record<string, string | number | boolean>;
}

export interface ToggleFilterProps {
  /** The filter form's key for this input (react-admin's filter list); the first of `keys`. */
  source: string;
  alwaysOn?: boolean;
  /** Every filter key the choices set. */
  keys: string[];
  choices: ToggleFilterChoice[];
  /** Translation key naming the group for screen readers. */
  label: string;
  testIdPrefix: string;
}

const blank = (value: unknown) => value === undefined || value === null || value === '';

/** A URL's filter arrives as text: `true` and `'true'`, `7` and `'7'` are the same choice. */
const same = (a: unknown, b: unknown) =>
  blank(a) ? blank(b) : !blank(b) && String(a) === String(b);

export function ToggleFilter({ keys, choices, label, testIdPrefix }: ToggleFilterProps) {
  const translate = useTranslate();
  const { setValue, control } = useFormContext();
  const { filterValues, displayedFilters, setFilters } = useListContext();
  const watched = useWatch({ control, name: keys }) as unknown[];
  const current = choices.find((choice) =>
    keys.every((key, index) => same(watched[index], choice.values[key])),
  );
  const choose = (id: string | null) => {
    const choice = choices.find((candidate) => candidate.id === id);
    if (!choice) return;
    const next: Record<string, unknown> = { ...filterValues };
    for (const key of keys) {
      setValue(key, choice.values[key] ?? '', { shouldDirty: true });
      if (blank(choice.values[key])) delete next[key];
      else next[key] = choice.values[key];
    }
    setFilters(next, displayedFilters, false);
  };
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={current?.id ?? null}
      onChange={(_event, id: string | null) => choose(id)}
      aria-label={translate(label)}
      sx={{ alignSelf: 'center', mb: 0.5 }}
    >
      {choices.map((choice) => (
        <ToggleButton key={choice.id} value={choice.id} data-testid={`${testIdPrefix}${choice.id}`}>
          {translate(choice.label)}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
