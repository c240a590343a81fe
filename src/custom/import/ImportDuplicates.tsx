/**
 * The CSV import's likely duplicates (issue 12): each valid row that looks like existing records
 * (customers by the create form's rule, open leads by e-mail or phone) or like an earlier row of
 * the file, what it looks like and why, and the user's choice — skip, import anyway, or (customers)
 * merge into one of the existing records (their empty fields are filled from the row) — per row or
 * for all flagged rows at once. A row left undecided is not imported (the server insists).
 */
import {
  Alert,
  Box,
  Button,
  ButtonGroup,
  Card,
  CardContent,
  Link,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { formatDate } from '../../i18n/format.ts';
import { formatPhone } from '../../schema/phone.ts';
import { useArea } from '../../shell/area.ts';
import { resourceHref } from '../../shell/paths.ts';
import type {
  DuplicateAction,
  DuplicateChoice,
  DuplicateReason,
  ExistingMatch,
  FlaggedRow,
} from './importCalls.ts';
import { customerName } from '../customers/model.ts';
import type { ImportConfig } from './config.ts';

const ACTIONS: DuplicateAction[] = ['skip', 'import', 'merge'];

/** Choices by row number. */
export type DuplicateChoices = Record<number, DuplicateChoice>;

/** The choice for every flagged row at once: merge only where an existing customer matches. */
export function chooseForAll(rows: FlaggedRow[], action: DuplicateAction): DuplicateChoices {
  const out: DuplicateChoices = {};
  for (const row of rows) {
    if (action !== 'merge') out[row.row] = { action };
    else if (row.matches.length > 0) out[row.row] = { action, into: row.matches[0].id };
  }
  return out;
}

/** The select's value of a choice: '' undecided, 'skip', 'import', 'merge:<id>'. */
const valueOf = (choice: DuplicateChoice | undefined): string =>
  !choice ? '' : choice.action === 'merge' ? `merge:${choice.into ?? ''}` : choice.action;

function choiceOf(value: string): DuplicateChoice | undefined {
  if (value === 'skip' || value === 'import') return { action: value };
  const merge = /^merge:(\d+)$/.exec(value);
  return merge ? { action: 'merge', into: Number(merge[1]) } : undefined;
}

export function ImportDuplicates({
  config,
  rows,
  total,
  choices,
  onChoices,
  disabled,
}: {
  config: ImportConfig;
  rows: FlaggedRow[];
  /** All flagged rows (more than `rows` when the server listed only the first ones). */
  total: number;
  choices: DuplicateChoices;
  onChoices: (choices: DuplicateChoices) => void;
  disabled: boolean;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const area = useArea();
  if (rows.length === 0) return null;
  const reasons = (list: DuplicateReason[]) =>
    list.map((reason) => translate(`app.customers.duplicates.reasons.${reason}`)).join(' · ');
  const undecided = rows.filter((row) => !choices[row.row]).length;
  const describe = (values: Record<string, unknown>) =>
    [
      customerName({
        organization: typeof values.organization === 'string' ? values.organization : undefined,
        firstName: typeof values.firstName === 'string' ? values.firstName : undefined,
        lastName: typeof values.lastName === 'string' ? values.lastName : undefined,
      }),
      formatDate(values.dateOfBirth, locale),
      values.email,
      typeof values.phoneNumber === 'string' ? formatPhone(values.phoneNumber) : undefined,
    ]
      .filter((part) => typeof part === 'string' && part !== '')
      .join(', ');
  const matchHref = (match: ExistingMatch) => resourceHref(area, config.resource, 'show', match.id);
  const actions = config.merges ? ACTIONS : ACTIONS.filter((action) => action !== 'merge');

  return (
    <Card data-testid="import-duplicates">
      <CardContent>
        <Typography variant="subtitle1" gutterBottom>
          {translate('app.customers.import.duplicates.title', { count: total })}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {translate(config.texts.duplicatesIntro)}
        </Typography>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1}
          alignItems={{ sm: 'center' }}
          sx={{ mb: 1 }}
        >
          <Typography variant="body2">
            {translate('app.customers.import.duplicates.forAll')}
          </Typography>
          <ButtonGroup size="small" variant="outlined" disabled={disabled}>
            {actions.map((action) => (
              <Button
                key={action}
                data-testid={`duplicates-all-${action}`}
                onClick={() => onChoices(chooseForAll(rows, action))}
              >
                {translate(`app.customers.import.duplicates.actions.${action}`)}
              </Button>
            ))}
          </ButtonGroup>
        </Stack>
        <Box sx={{ maxHeight: 420, overflow: 'auto' }}>
          <Table size="small" stickyHeader>
            <TableHead>
              <TableRow>
                <TableCell>{translate('app.customers.import.row')}</TableCell>
                <TableCell>{translate('app.customers.import.duplicates.inFile')}</TableCell>
                <TableCell>{translate('app.customers.import.duplicates.looksLike')}</TableCell>
                <TableCell sx={{ width: 280 }}>
                  {translate('app.customers.import.duplicates.choice')}
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.row} data-testid={`duplicate-row-${row.row}`}>
                  <TableCell>{row.row}</TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>{describe(row.values)}</TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>
                    {row.matches.map((match) => (
                      <Box key={match.id} sx={{ mb: 0.5 }}>
                        <Link href={matchHref(match)} target="_blank" rel="noopener">
                          {`${customerName(match)} (#${match.id})`}
                        </Link>
                        {match.city ? `, ${match.city}` : ''}
                        <Typography variant="caption" component="div" color="text.secondary">
                          {reasons(match.reasons)}
                        </Typography>
                      </Box>
                    ))}
                    {row.fileRows.map((other) => (
                      <Box key={`row-${other.row}`} sx={{ mb: 0.5 }}>
                        {translate('app.customers.import.duplicates.fileRow', { row: other.row })}
                        <Typography variant="caption" component="div" color="text.secondary">
                          {reasons(other.reasons)}
                        </Typography>
                      </Box>
                    ))}
                  </TableCell>
                  <TableCell>
                    <TextField
                      select
                      size="small"
                      fullWidth
                      disabled={disabled}
                      value={valueOf(choices[row.row])}
                      onChange={(event) => {
                        const next = { ...choices };
                        const choice = choiceOf(event.target.value);
                        if (choice) next[row.row] = choice;
                        else delete next[row.row];
                        onChoices(next);
                      }}
                      slotProps={{
                        select: {
                          displayEmpty: true,
                          SelectDisplayProps: {
                            'aria-label': translate('app.customers.import.duplicates.choiceFor', {
                              row: row.row,
                            }),
                          },
                        },
                        htmlInput: { 'data-testid': `duplicate-choice-${row.row}` },
                      }}
                    >
                      <MenuItem value="">
                        <em>{translate('app.customers.import.duplicates.undecided')}</em>
                      </MenuItem>
                      <MenuItem value="skip">
                        {translate('app.customers.import.duplicates.actions.skip')}
                      </MenuItem>
                      <MenuItem value="import">
                        {translate('app.customers.import.duplicates.actions.import')}
                      </MenuItem>
                      {(config.merges ? row.matches : []).map((match) => (
                        <MenuItem key={match.id} value={`merge:${match.id}`}>
                          {translate('app.customers.import.duplicates.mergeInto', {
                            name: `${customerName(match)} (#${match.id})`,
                          })}
                        </MenuItem>
                      ))}
                    </TextField>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
        {total > rows.length ? (
          <Typography variant="caption" component="p" sx={{ mt: 1 }}>
            {translate('app.customers.import.duplicates.more', { count: total - rows.length })}
          </Typography>
        ) : null}
        {undecided > 0 ? (
          <Alert severity="warning" sx={{ mt: 1 }} data-testid="duplicates-undecided">
            {translate('app.customers.import.duplicates.undecidedCount', { count: undecided })}
          </Alert>
        ) : null}
      </CardContent>
    </Card>
  );
}
