/** A card on a kanban board (leads): title, subtitle, a status chip and a date. */
import { Card, CardContent, Chip, Stack, Typography } from '@mui/material';

export function KanbanCard({
  title,
  subtitle,
  status,
  date,
}: {
  title: string;
  subtitle?: string;
  status?: string;
  date?: string;
}) {
  return (
    <Card variant="outlined" sx={{ width: 260 }} data-testid="kanban-card">
      <CardContent sx={{ '&:last-child': { pb: 1.5 } }}>
        <Typography fontWeight={600}>{title}</Typography>
        {subtitle ? (
          <Typography variant="body2" color="text.secondary">
            {subtitle}
          </Typography>
        ) : null}
        <Stack direction="row" spacing={1} alignItems="center" sx={{ mt: 1 }}>
          {status ? <Chip size="small" label={status} /> : null}
          {date ? (
            <Typography variant="caption" color="text.secondary">
              {date}
            </Typography>
          ) : null}
        </Stack>
      </CardContent>
    </Card>
  );
}
