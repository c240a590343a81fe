/** A titled card of the settings page (its title is also the section's accessible name). */
import { Card, CardContent, CardHeader } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';

export function Section({ title, children }: { title: string; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <Card component="section" aria-label={translate(title)}>
      <CardHeader
        title={translate(title)}
        slotProps={{ title: { variant: 'h6', component: 'h2' } }}
      />
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: 0 }}>
        {children}
      </CardContent>
    </Card>
  );
}
