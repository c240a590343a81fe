/** Placeholder for a route whose feature lands in a later release (named by app.coming.<feature>). */
import ConstructionIcon from '@mui/icons-material/Construction';
import { Card, CardContent, Stack, Typography } from '@mui/material';
import { Title, useTranslate } from 'react-admin';

export default function ComingSoon({ feature }: { feature: string }) {
  const translate = useTranslate();
  const name = translate(`app.coming.${feature}`, { _: feature });
  return (
    <Card sx={{ mt: 2 }} data-testid="coming-soon">
      <Title title={name} />
      <CardContent>
        <Stack direction="row" spacing={2} alignItems="center">
          <ConstructionIcon color="action" fontSize="large" />
          <div>
            <Typography variant="h6" component="h2">
              {name}
            </Typography>
            <Typography color="text.secondary">{translate('app.coming.text')}</Typography>
          </div>
        </Stack>
      </CardContent>
    </Card>
  );
}
