/**
 * Two checks side by side: per scenario the need, the cover and the gap of the earlier check and of
 * the one shown, and how the gap changed (red when it grew, green when it shrank).
 */
import CloseIcon from '@mui/icons-material/Close';
import {
  Box,
  IconButton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import { useTranslate } from 'react-admin';
import { enumKey } from '../../schema/labels.ts';
import { type CheckResults, compareChecks, francs, signedFrancs } from './model.ts';

const ui = (key: string) => `app.globalCheck.ui.${key}`;
const numeric = { whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' } as const;

export function Comparison({
  now,
  before,
  beforeWhen,
  nowWhen,
  onClose,
}: {
  now: CheckResults;
  before: CheckResults;
  /** When the earlier check was made (./model.ts checkWhen). */
  beforeWhen: string;
  /** When the check shown was made; null for one not saved yet. */
  nowWhen: string | null;
  onClose: () => void;
}) {
  const translate = useTranslate();
  const rows = compareChecks(now, before);
  const earlier = beforeWhen;
  const current = nowWhen ?? translate(ui('compare.unsaved'));
  return (
    <Box data-testid="gc-comparison">
      <Stack direction="row" sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="subtitle1" sx={{ flex: 1 }}>
          {translate(ui('compare.title'), { before: earlier, now: current })}
        </Typography>
        <Tooltip title={translate('ra.action.close')}>
          <IconButton
            size="small"
            onClick={onClose}
            aria-label={translate('ra.action.close')}
            data-testid="gc-comparison-close"
          >
            <CloseIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      </Stack>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{translate(ui('compare.scenario'))}</TableCell>
              <TableCell align="right">{translate(ui('compare.need'))}</TableCell>
              <TableCell align="right">{translate(ui('compare.cover'))}</TableCell>
              <TableCell align="right">
                {translate(ui('compare.gapOn'), { date: earlier })}
              </TableCell>
              <TableCell align="right">
                {translate(ui('compare.gapOn'), { date: current })}
              </TableCell>
              <TableCell align="right">{translate(ui('compare.difference'))}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.scenario} data-testid={`gc-compare-${row.scenario}`}>
                <TableCell>{translate(enumKey('globalCheckScenario', row.scenario))}</TableCell>
                <TableCell align="right" sx={numeric}>
                  {francs(row.before?.need)} → {francs(row.now?.need)}
                </TableCell>
                <TableCell align="right" sx={numeric}>
                  {francs(row.before?.cover)} → {francs(row.now?.cover)}
                </TableCell>
                <TableCell align="right" sx={numeric}>
                  {francs(row.before?.gap)}
                </TableCell>
                <TableCell align="right" sx={numeric}>
                  {francs(row.now?.gap)}
                </TableCell>
                <TableCell
                  align="right"
                  data-testid="gc-compare-difference"
                  sx={{
                    ...numeric,
                    fontWeight: 600,
                    color:
                      row.gapChange === null || row.gapChange === 0
                        ? 'text.secondary'
                        : row.gapChange > 0
                          ? 'error.main'
                          : 'success.main',
                  }}
                >
                  {signedFrancs(row.gapChange)}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
    </Box>
  );
}
