/**
 * New password and its confirmation, with the password rule (src/schema/passwordRule.ts, the same
 * function the server applies) shown as a checklist while typing.
 */
import CheckIcon from '@mui/icons-material/CheckCircleOutline';
import CloseIcon from '@mui/icons-material/RadioButtonUnchecked';
import { Box, List, ListItem, ListItemIcon, ListItemText, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import { type PasswordProblem, passwordProblems } from '../../schema/passwordRule.ts';

const RULES: PasswordProblem[] = ['tooShort', 'uppercase', 'lowercase', 'symbol', 'mismatch'];

export const passwordAcceptable = (password: string, confirm: string): boolean =>
  passwordProblems(password, confirm).length === 0;

export function PasswordFields({
  password,
  confirm,
  onPassword,
  onConfirm,
  passwordError,
  confirmError,
  passwordLabel = 'app.password.new',
  autoFocus,
}: {
  password: string;
  confirm: string;
  onPassword: (value: string) => void;
  onConfirm: (value: string) => void;
  /** Server messages (already texts) beside the fields. */
  passwordError?: string;
  confirmError?: string;
  passwordLabel?: string;
  autoFocus?: boolean;
}) {
  const translate = useTranslate();
  const problems = passwordProblems(password, confirm);
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <TextField
        label={translate(passwordLabel)}
        type="password"
        name="new-password"
        autoComplete="new-password"
        value={password}
        onChange={(event) => onPassword(event.target.value)}
        error={Boolean(passwordError)}
        helperText={passwordError && translate(passwordError, { _: passwordError })}
        required
        autoFocus={autoFocus}
      />
      <TextField
        label={translate('app.password.confirm')}
        type="password"
        name="confirm-password"
        autoComplete="new-password"
        value={confirm}
        onChange={(event) => onConfirm(event.target.value)}
        error={Boolean(confirmError) || (confirm !== '' && problems.includes('mismatch'))}
        helperText={confirmError && translate(confirmError, { _: confirmError })}
        required
      />
      <List dense disablePadding aria-label={translate('app.password.rules')}>
        {RULES.map((rule) => {
          const met = password !== '' && !problems.includes(rule);
          return (
            <ListItem key={rule} disableGutters sx={{ py: 0 }} data-rule={rule} data-met={met}>
              <ListItemIcon sx={{ minWidth: 28 }}>
                {met ? (
                  <CheckIcon fontSize="small" color="success" />
                ) : (
                  <CloseIcon fontSize="small" color="disabled" />
                )}
              </ListItemIcon>
              <ListItemText
                primary={translate(`app.password.rule.${rule}`)}
                slotProps={{ primary: { variant: 'body2' } }}
              />
            </ListItem>
          );
        })}
      </List>
    </Box>
  );
}
