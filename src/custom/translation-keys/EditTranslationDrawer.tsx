/**
 * The drawer (large, 35 %) that edits one key's four texts (mount it with the key's id as `key`). Saves all four through the PUT; the
 * server's field errors ("translations.<n>.text") show beside the text they concern, in the user's
 * language; errors of anything else are notified (src/resources/forms/useServerErrors.ts). A text
 * can go back to the release's text (it then follows future releases again).
 */
import { Box, Button, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useLocale, useNotify, useTranslate } from 'react-admin';
import { AppDrawer } from '../../components/AppDrawer.tsx';
import type { Language, TranslationEntry } from '../../i18n/api.ts';
import { formatDateTime } from '../../i18n/format.ts';
import { useServerErrors } from '../../resources/forms/useServerErrors.ts';
import { useSaveTranslation } from './useLocalizationData.ts';

/** The texts are sent in the order of the languages; their errors show beside them. */
const isTextPath = (path: string): boolean => /^translations\.\d+\.text$/.test(path);

/** A text's label for the notification: its language's name. */
function labelKeyOf(languages: Language[], path: string): string | undefined {
  const index = /^translations\.(\d+)\./.exec(path)?.[1];
  const language = index === undefined ? undefined : languages[Number(index)];
  return language ? `app.languageNames.${language.abbreviation}` : undefined;
}

export function EditTranslationDrawer({
  entry,
  languages,
  onClose,
}: {
  entry: TranslationEntry | null;
  languages: Language[];
  onClose: () => void;
}) {
  const translate = useTranslate();
  const locale = useLocale();
  const notify = useNotify();
  const save = useSaveTranslation();
  const [texts, setTexts] = useState<Record<number, string>>(() =>
    Object.fromEntries(
      (entry?.translations ?? []).map((translation) => [translation.languageId, translation.text]),
    ),
  );
  const errors = useServerErrors({
    shown: isTextPath,
    labelKey: (path) => labelKeyOf(languages, path),
  });

  if (!entry) return null;

  const order = languages.map((language) => language.id);
  const submit = () => {
    errors.clear();
    save.mutate(
      {
        id: entry.id,
        translationKey: entry.translationKey,
        translations: order.map((languageId) => ({ languageId, text: texts[languageId] ?? '' })),
      },
      {
        onSuccess: () => {
          notify('app.translationKeys.saved', { type: 'success' });
          onClose();
        },
        onError: errors.report,
      },
    );
  };

  return (
    <AppDrawer
      open
      onClose={onClose}
      size="large"
      title={translate('app.translationKeys.editTitle')}
    >
      <Box
        component="form"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        noValidate
      >
        <Typography
          variant="body2"
          sx={{ fontFamily: 'monospace', wordBreak: 'break-all', mb: 2 }}
          data-testid="translation-key"
        >
          {entry.translationKey}
        </Typography>
        <Stack spacing={2}>
          {languages.map((language, index) => {
            const stored = entry.translations.find((item) => item.languageId === language.id);
            const value = texts[language.id] ?? '';
            const error = errors.errorOf(`translations.${index}.text`);
            const release = stored?.releaseText ?? null;
            return (
              <Box key={language.id}>
                <TextField
                  name={`text-${language.abbreviation}`}
                  label={translate(`app.languageNames.${language.abbreviation}`)}
                  value={value}
                  onChange={(event) =>
                    setTexts((current) => ({ ...current, [language.id]: event.target.value }))
                  }
                  multiline
                  minRows={1}
                  maxRows={8}
                  fullWidth
                  error={Boolean(error) || value === ''}
                  helperText={
                    error
                      ? error
                      : value === ''
                        ? translate('app.translationKeys.missingHelp')
                        : stored?.editedAt
                          ? translate('app.translationKeys.editedOn', {
                              date: formatDateTime(stored.editedAt, locale),
                            })
                          : undefined
                  }
                  slotProps={{ htmlInput: { lang: language.abbreviation, maxLength: 2000 } }}
                />
                {release !== null && release !== value && (
                  <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 0.5 }}>
                    <Typography variant="caption" color="text.secondary" sx={{ flex: 1 }}>
                      {translate('app.translationKeys.releaseText', { text: release })}
                    </Typography>
                    <Button
                      size="small"
                      onClick={() =>
                        setTexts((current) => ({ ...current, [language.id]: release }))
                      }
                    >
                      {translate('app.translationKeys.useRelease')}
                    </Button>
                  </Box>
                )}
              </Box>
            );
          })}
        </Stack>
        <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end', mt: 3 }}>
          <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={save.isPending}>
            {translate('ra.action.save')}
          </Button>
        </Box>
      </Box>
    </AppDrawer>
  );
}
