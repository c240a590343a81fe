/** The area's start page (issue 5 grows it); for now a greeting and the user's role. */
import { Card, CardContent, Typography } from '@mui/material';
import { Title, useGetIdentity, useTranslate } from 'react-admin';

export default function Dashboard() {
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  return (
    <Card sx={{ mt: 2 }}>
      <Title title="app.dashboard.title" />
      <CardContent>
        <Typography variant="h5" component="h2" gutterBottom>
          {translate('app.dashboard.welcome', { name: identity?.fullName ?? '' })}
        </Typography>
        {identity?.role ? (
          <Typography color="text.secondary">
            {translate(`enums.role.${String(identity.role)}`)}
          </Typography>
        ) : null}
      </CardContent>
    </Card>
  );
}
