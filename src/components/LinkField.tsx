/**
 * A link to pass on (a customer's comparison link, a signing link): read-only, selected on focus,
 * with "copy" (the clipboard) and a note once copied. Texts are translation keys.
 */
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { Alert, IconButton, InputAdornment, TextField, Tooltip } from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';

export function LinkField({
  value,
  label,
  copyLabel,
  copiedLabel,
  helperText,
  testId,
  copyTestId,
}: {
  value: string;
  label: string;
  copyLabel: string;
  copiedLabel: string;
  helperText?: string;
  testId?: string;
  copyTestId?: string;
}) {
  const translate = useTranslate();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <>
      <TextField
        label={translate(label)}
        value={value}
        fullWidth
        size="small"
        helperText={helperText}
        // Shown in place of the form whose button had the focus: the link takes it (selected),
        // so it can be copied at once and the dialog still hears Escape.
        autoFocus
        onFocus={(event) => event.target.select()}
        slotProps={{
          htmlInput: { readOnly: true, 'data-testid': testId },
          input: {
            endAdornment: (
              <InputAdornment position="end">
                <Tooltip title={translate(copyLabel)}>
                  <IconButton
                    onClick={() => void copy()}
                    aria-label={translate(copyLabel)}
                    data-testid={copyTestId}
                  >
                    <ContentCopyIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              </InputAdornment>
            ),
          },
        }}
      />
      {copied ? <Alert severity="success">{translate(copiedLabel)}</Alert> : null}
    </>
  );
}
