/**
 * /register: a new account (name, email, phone, language, password). It can sign in once an
 * administrator approves it; the answer is the same whether or not the address is already known.
 */
import { Alert, Button, CircularProgress, MenuItem, TextField } from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { LANGUAGES } from '../../i18n/index.ts';
import { api, fieldErrorOf, fieldErrorsOf, statusOf } from '../../dataProvider/apiClient.ts';
import { camelToSnake } from '../../schema/case.ts';
import { PasswordFields, passwordAcceptable } from './PasswordFields.tsx';
import { PublicCard } from './PublicCard.tsx';

export default function RegisterPage() {
  const translate = useTranslate();
  /** A server message in the user's language (its key, see src/schema/errors.ts). */
  const translateError = (message: string | undefined) =>
    message === undefined ? undefined : translate(message, { _: message });
  const [locale] = useLocaleState();
  const [values, setValues] = useState({
    firstName: '',
    lastName: '',
    email: '',
    phone: '',
    language: locale,
  });
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const set = (field: keyof typeof values) => (event: { target: { value: string } }) =>
    setValues({ ...values, [field]: event.target.value });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api.json('POST', 'account/register', {
        body: {
          ...values,
          phone: values.phone.trim() || undefined,
          email: values.email.trim(),
          password,
          confirmPassword: confirm,
        },
      });
      setDone(true);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  const text = (
    field: keyof typeof values,
    label: string,
    type = 'text',
    autoComplete?: string,
  ) => (
    <TextField
      label={translate(label)}
      // The field's name as the API spells it (what password managers and the e2e tests see).
      name={camelToSnake(field)}
      type={type}
      autoComplete={autoComplete}
      value={values[field]}
      onChange={set(field)}
      error={Boolean(fieldErrorOf(error, field))}
      helperText={translateError(fieldErrorOf(error, field))}
      required={field !== 'phone'}
    />
  );

  if (done) {
    return (
      <PublicCard
        subtitle="app.account.register.title"
        links={[{ to: '/login', label: 'app.account.toLogin' }]}
      >
        <Alert severity="success" role="status">
          {translate('app.account.register.done')}
        </Alert>
      </PublicCard>
    );
  }
  const generic =
    error && Object.keys(fieldErrorsOf(error)).length === 0
      ? statusOf(error) === 429
        ? 'app.account.tooMany'
        : 'app.login.unavailable'
      : error
        ? 'app.account.checkFields'
        : null;
  return (
    <PublicCard
      subtitle="app.account.register.title"
      onSubmit={submit}
      links={[{ to: '/login', label: 'app.account.toLogin' }]}
    >
      {generic && <Alert severity="error">{translate(generic)}</Alert>}
      {text('firstName', 'app.account.register.firstName', 'text', 'given-name')}
      {text('lastName', 'app.account.register.lastName', 'text', 'family-name')}
      {text('email', 'app.login.email', 'email', 'email')}
      {text('phone', 'app.account.register.phone', 'tel', 'tel')}
      <TextField
        select
        label={translate('app.language')}
        value={values.language}
        onChange={set('language')}
      >
        {LANGUAGES.map((language) => (
          <MenuItem key={language} value={language}>
            {translate(`enums.language.${language}`)}
          </MenuItem>
        ))}
      </TextField>
      <PasswordFields
        password={password}
        confirm={confirm}
        onPassword={setPassword}
        onConfirm={setConfirm}
        passwordLabel="app.login.password"
        passwordError={fieldErrorOf(error, 'password')}
        confirmError={fieldErrorOf(error, 'confirmPassword')}
      />
      <Button
        type="submit"
        variant="contained"
        size="large"
        disabled={
          busy ||
          !values.firstName.trim() ||
          !values.lastName.trim() ||
          !values.email.trim() ||
          !passwordAcceptable(password, confirm)
        }
      >
        {busy ? (
          <CircularProgress size={24} color="inherit" />
        ) : (
          translate('app.account.register.submit')
        )}
      </Button>
    </PublicCard>
  );
}
