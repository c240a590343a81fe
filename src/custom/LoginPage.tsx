/** /login: email and password; on success the user lands on its own dashboard. */
import LockIcon from '@mui/icons-material/LockOutlined';
import {
  Alert,
  Avatar,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  TextField,
  Typography,
} from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useLogin, useTranslate } from 'react-admin';
import { LanguageSwitcher } from '../layout/LanguageSwitcher.tsx';

export default function LoginPage() {
  const translate = useTranslate();
  const login = useLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await login({ email, password });
    } catch (caught) {
      const status = (caught as { status?: number }).status;
      setError(
        status === 429
          ? 'app.login.throttled'
          : status === 401
            ? 'app.login.failed'
            : 'app.login.unavailable',
      );
      setBusy(false);
    }
  };

  return (
    <Box
      sx={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        bgcolor: 'grey.100',
        p: 2,
      }}
    >
      <Card sx={{ width: 380, maxWidth: '100%' }}>
        <CardContent
          component="form"
          onSubmit={submit}
          noValidate
          sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}
        >
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
            <Avatar sx={{ bgcolor: 'primary.main' }}>
              <LockIcon />
            </Avatar>
            <Box sx={{ flex: 1 }}>
              <Typography variant="h5" component="h1">
                GS CRM
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {translate('app.login.subtitle')}
              </Typography>
            </Box>
            <LanguageSwitcher />
          </Box>
          {error && <Alert severity="error">{translate(error)}</Alert>}
          <TextField
            label={translate('app.login.email')}
            type="email"
            name="email"
            autoComplete="username"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            required
            autoFocus
          />
          <TextField
            label={translate('app.login.password')}
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            required
          />
          <Button
            type="submit"
            variant="contained"
            size="large"
            disabled={busy || !email || !password}
          >
            {busy ? <CircularProgress size={24} color="inherit" /> : translate('app.login.submit')}
          </Button>
        </CardContent>
      </Card>
    </Box>
  );
}
