/**
 * The frame of the public pages a customer opens from a link (the car comparison, signing a
 * document): one friendly column under a header with the brokerage's name, the page's title, an
 * optional line below it and the language switch, whose choice also goes into the address
 * (`lang`). `LinkProblem` is the card such a page shows instead of its content when the link
 * cannot be used.
 */
import LinkOffIcon from '@mui/icons-material/LinkOff';
import {
  Box,
  Card,
  CardContent,
  Container,
  MenuItem,
  Paper,
  TextField,
  Typography,
} from '@mui/material';
import type { ReactNode } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { useParamsChange } from './useParamsChange.ts';
import { LANGUAGES } from '../i18n/index.ts';

export function PublicFrame({
  icon,
  title,
  subtitle,
  subtitleTestId,
  action,
  languageTestId,
  children,
}: {
  icon: ReactNode;
  /** A translation key. */
  title: string;
  subtitle?: string;
  subtitleTestId?: string;
  action?: ReactNode;
  languageTestId?: string;
  children: ReactNode;
}) {
  const translate = useTranslate();
  return (
    <Box component="main" sx={{ minHeight: '100vh', bgcolor: 'grey.100', pb: 6 }}>
      <Paper square elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
        <Container
          maxWidth="md"
          sx={{ display: 'flex', alignItems: 'center', gap: 2, py: 1.5, flexWrap: 'wrap' }}
        >
          {icon}
          <Box sx={{ flex: 1, minWidth: 200 }}>
            <Typography variant="overline" color="text.secondary" sx={{ lineHeight: 1.4 }}>
              {translate('app.fs24.brokerage')}
            </Typography>
            <Typography variant="h6" component="h1" sx={{ lineHeight: 1.3 }}>
              {translate(title)}
            </Typography>
            {subtitle ? (
              <Typography variant="body2" color="text.secondary" data-testid={subtitleTestId}>
                {subtitle}
              </Typography>
            ) : null}
          </Box>
          {action}
          <LanguageChoice testId={languageTestId} />
        </Container>
      </Paper>
      <Container maxWidth="md" sx={{ mt: 3 }}>
        {children}
      </Container>
    </Box>
  );
}

/** The language switch of the header; the choice also goes into the address (`lang`). */
function LanguageChoice({ testId }: { testId?: string }) {
  const translate = useTranslate();
  const [locale, setLocale] = useLocaleState();
  const [, change] = useParamsChange();
  return (
    <TextField
      select
      size="small"
      value={locale}
      onChange={(event) => {
        const language = event.target.value;
        setLocale(language);
        change({ lang: language });
      }}
      slotProps={{
        htmlInput: { 'aria-label': translate('app.language'), 'data-testid': testId },
      }}
      fullWidth={false}
      sx={{ minWidth: 130, flex: 'none' }}
    >
      {LANGUAGES.map((code) => (
        <MenuItem key={code} value={code} lang={code}>
          {translate(`app.languageNames.${code}`)}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** A link that cannot be used: what happened (translated keys), nothing else. */
export function LinkProblem({
  title,
  text,
  testId,
  children,
}: {
  title: string;
  text: string;
  testId?: string;
  children?: ReactNode;
}) {
  const translate = useTranslate();
  return (
    <Card data-testid={testId}>
      <CardContent sx={{ textAlign: 'center', py: 5 }}>
        <LinkOffIcon color="disabled" sx={{ fontSize: 56 }} />
        <Typography variant="h5" component="h2" sx={{ mt: 1 }}>
          {translate(title)}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1, maxWidth: 480, mx: 'auto' }}>
          {translate(text)}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}
