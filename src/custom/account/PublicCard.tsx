/** The frame of the public account pages (login, register, forgot and change password). */
import LockIcon from '@mui/icons-material/LockOutlined';
import { Avatar, Box, Card, CardContent, Link, Typography } from '@mui/material';
import type { FormEvent, ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { LanguageSwitcher } from '../../layout/LanguageSwitcher.tsx';

export function PublicCard({
  subtitle,
  onSubmit,
  children,
  links,
}: {
  /** Translation key under the title. */
  subtitle: string;
  onSubmit?: (event: FormEvent) => void;
  children: ReactNode;
  links?: Array<{ to: string; label: string }>;
}) {
  const translate = useTranslate();
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        bgcolor: 'grey.100',
        p: 2,
      }}
    >
      <Card sx={{ width: 420, maxWidth: '100%' }}>
        <CardContent
          component={onSubmit ? 'form' : 'div'}
          onSubmit={onSubmit}
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
                {translate(subtitle)}
              </Typography>
            </Box>
            <LanguageSwitcher />
          </Box>
          {children}
          {links && links.length > 0 ? (
            <Box
              sx={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}
            >
              {links.map((link) => (
                <Link key={link.to} component={RouterLink} to={link.to} variant="body2">
                  {translate(link.label)}
                </Link>
              ))}
            </Box>
          ) : null}
        </CardContent>
      </Card>
    </Box>
  );
}
