/** A side drawer of the two sizes the spec fixes (large 35 %, medium 30 % of the width). */
import CloseIcon from '@mui/icons-material/Close';
import { Box, Drawer, IconButton, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { UI } from '../shell/config.ts';

export function AppDrawer({
  open,
  onClose,
  size = 'medium',
  title,
  children,
}: {
  open: boolean;
  onClose: () => void;
  size?: 'large' | 'medium';
  title: string;
  children: ReactNode;
}) {
  const translate = useTranslate();
  return (
    <Drawer
      anchor="right"
      open={open}
      onClose={onClose}
      slotProps={{
        paper: { sx: { width: { xs: '100%', md: UI.drawer[size] } }, 'data-size': size } as object,
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', p: 2, gap: 1 }}>
        <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
          {title}
        </Typography>
        <IconButton onClick={onClose} aria-label={translate('ra.action.close')}>
          <CloseIcon />
        </IconButton>
      </Box>
      <Box sx={{ px: 2, pb: 2 }}>{children}</Box>
    </Drawer>
  );
}
