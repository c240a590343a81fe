/**
 * "History" on a record's show view: opens a drawer with the record's changes (and its
 * children's, e.g. a customer's documents), for any resource.
 */
import CloseIcon from '@mui/icons-material/Close';
import HistoryIcon from '@mui/icons-material/History';
import { Box, Drawer, IconButton, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { Button, useRecordContext, useTranslate } from 'react-admin';
import { HistoryList } from './HistoryList.tsx';

export function HistoryButton({ resource }: { resource: string }) {
  const translate = useTranslate();
  const record = useRecordContext();
  const [open, setOpen] = useState(false);
  if (!record?.id) return null;
  return (
    <>
      <Button label="app.history.open" onClick={() => setOpen(true)} data-testid="history-open">
        <HistoryIcon />
      </Button>
      <Drawer anchor="right" open={open} onClose={() => setOpen(false)}>
        <Box sx={{ width: { xs: '100vw', sm: 480 }, p: 2 }} data-testid="history-drawer">
          <Stack direction="row" sx={{ alignItems: 'center', mb: 1 }}>
            <Typography variant="h6" sx={{ flex: 1 }}>
              {translate('app.history.title')}
            </Typography>
            <IconButton onClick={() => setOpen(false)} aria-label={translate('ra.action.close')}>
              <CloseIcon />
            </IconButton>
          </Stack>
          {open ? (
            <HistoryList filter={{ resource, recordId: record.id }} subject={resource} />
          ) : null}
        </Box>
      </Drawer>
    </>
  );
}
