/** Language choice (de, en, fr, it); react-admin re-renders in place, no reload. */
import { MenuItem, TextField } from '@mui/material';
import { useLocaleState, useLocales, useTranslate } from 'react-admin';

export function LanguageSwitcher() {
  const locales = useLocales();
  const [locale, setLocale] = useLocaleState();
  const translate = useTranslate();
  return (
    <TextField
      select
      size="small"
      value={locale}
      onChange={(event) => setLocale(event.target.value)}
      inputProps={{ 'aria-label': translate('app.language') }}
      fullWidth={false}
      sx={{ minWidth: 140, '& .MuiInputBase-root': { color: 'inherit' } }}
    >
      {locales.map(({ locale: code, name }) => (
        <MenuItem key={code} value={code} lang={code}>
          {name}
        </MenuItem>
      ))}
    </TextField>
  );
}
