/**
 * /app-elements-guide (also Ctrl+Shift+G): the app's own building blocks, rendered with the real
 * components in the current language — a living reference for designers and developers.
 */
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Divider,
  LinearProgress,
  Stack,
  Typography,
  useTheme,
} from '@mui/material';
import { type ReactNode, useState } from 'react';
import {
  AutocompleteInput,
  BooleanField,
  Confirm,
  Datagrid,
  DateField,
  DateInput,
  FileField,
  FileInput,
  Form,
  NumberField,
  ResourceContextProvider,
  SelectInput,
  TextField,
  TextInput,
  useNotify,
  useTranslate,
} from 'react-admin';
import { AppDrawer } from '../components/AppDrawer.tsx';
import { KanbanCard } from '../components/KanbanCard.tsx';
import { LanguageSwitcher } from '../layout/LanguageSwitcher.tsx';
import { UI } from '../shell/config.ts';

const ALERT_TYPES = ['error', 'warning', 'success', 'info'] as const;
const SAMPLE_ROWS = [
  { id: 1, name: 'Helsana', premium: 4321.5, partner: true, since: '2024-03-01' },
  { id: 2, name: 'Die Mobiliar', premium: 1280, partner: false, since: '2025-11-15' },
];

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <Card component="section" aria-labelledby={`guide-${id}`} sx={{ mb: 3 }}>
      <CardContent>
        <Typography id={`guide-${id}`} variant="h5" component="h2" gutterBottom>
          {translate(title)}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

export default function AppElementsGuide() {
  const translate = useTranslate();
  const notify = useNotify();
  const theme = useTheme();
  const [drawer, setDrawer] = useState<'large' | 'medium' | null>(null);
  const [dialog, setDialog] = useState(false);
  const colors = ['primary', 'secondary', 'error', 'warning', 'info', 'success'] as const;
  return (
    <Box sx={{ maxWidth: 1100, mx: 'auto', p: { xs: 1, md: 3 } }}>
      <Stack direction="row" alignItems="center" sx={{ mb: 2 }}>
        <Typography variant="h4" component="h1" sx={{ flex: 1 }}>
          {translate('app.guide.title')}
        </Typography>
        <LanguageSwitcher />
      </Stack>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {translate('app.guide.intro')}
      </Typography>

      <Section id="typography" title="app.guide.typography">
        {(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'body1', 'body2', 'caption'] as const).map(
          (variant) => (
            <Typography key={variant} variant={variant} component="p">
              {variant} · GS CRM
            </Typography>
          ),
        )}
      </Section>

      <Section id="colors" title="app.guide.colors">
        <Stack direction="row" flexWrap="wrap" gap={2}>
          {colors.map((color) => (
            <Box key={color} sx={{ width: 120 }}>
              <Box sx={{ height: 48, borderRadius: 1, bgcolor: `${color}.main` }} />
              <Typography variant="caption">
                {color} {theme.palette[color].main}
              </Typography>
            </Box>
          ))}
        </Stack>
      </Section>

      <Section id="buttons" title="app.guide.buttons">
        <Stack direction="row" flexWrap="wrap" gap={2}>
          <Button variant="contained">{translate('ra.action.save')}</Button>
          <Button variant="outlined">{translate('ra.action.edit')}</Button>
          <Button variant="text">{translate('ra.action.cancel')}</Button>
          <Button variant="contained" color="error">
            {translate('ra.action.delete')}
          </Button>
          <Button variant="contained" disabled>
            {translate('ra.action.create')}
          </Button>
        </Stack>
      </Section>

      <Section id="inputs" title="app.guide.inputs">
        <Form record={{ name: 'Andrea Meier', group: 'internal', date: '2026-11-21' }}>
          <Stack direction={{ xs: 'column', md: 'row' }} flexWrap="wrap" columnGap={2}>
            <TextInput source="name" label="app.guide.textInput" />
            <SelectInput
              source="group"
              label="app.guide.selectInput"
              choices={['internal', 'special', 'other'].map((id) => ({
                id,
                name: `enums.leadSourceGroup.${id}`,
              }))}
            />
            <DateInput source="date" label="app.guide.dateInput" />
            <AutocompleteInput
              source="company"
              label="app.guide.referenceInput"
              choices={SAMPLE_ROWS.map((row) => ({ id: row.id, name: row.name }))}
            />
          </Stack>
          <FileInput source="file" label="app.guide.fileInput">
            <FileField source="src" title="title" />
          </FileInput>
        </Form>
      </Section>

      <Section id="lists" title="app.guide.lists">
        <ResourceContextProvider value="guide-samples">
          <Datagrid
            data={SAMPLE_ROWS}
            total={SAMPLE_ROWS.length}
            bulkActionButtons={false}
            rowClick={false}
            sort={{ field: 'name', order: 'ASC' }}
          >
            <TextField source="name" label="app.guide.column.name" sortable={false} />
            <NumberField
              source="premium"
              label="app.guide.column.premium"
              locales="de-CH"
              options={{ style: 'currency', currency: 'CHF' }}
              sortable={false}
            />
            <BooleanField source="partner" label="app.guide.column.partner" sortable={false} />
            <DateField source="since" label="app.guide.column.since" sortable={false} />
          </Datagrid>
        </ResourceContextProvider>
      </Section>

      <Section id="drawers" title="app.guide.drawers">
        <Stack direction="row" gap={2}>
          <Button variant="outlined" onClick={() => setDrawer('large')}>
            {translate('app.guide.drawerLarge')}
          </Button>
          <Button variant="outlined" onClick={() => setDrawer('medium')}>
            {translate('app.guide.drawerMedium')}
          </Button>
        </Stack>
        <AppDrawer
          open={drawer !== null}
          onClose={() => setDrawer(null)}
          size={drawer ?? 'medium'}
          title={translate(drawer === 'large' ? 'app.guide.drawerLarge' : 'app.guide.drawerMedium')}
        >
          <Typography>
            {translate('app.guide.drawerText', { width: drawer ? UI.drawer[drawer] : '' })}
          </Typography>
        </AppDrawer>
      </Section>

      <Section id="dialogs" title="app.guide.dialogs">
        <Button variant="outlined" onClick={() => setDialog(true)}>
          {translate('app.guide.openDialog')}
        </Button>
        <Confirm
          isOpen={dialog}
          title="app.guide.dialogTitle"
          content="app.guide.dialogText"
          onConfirm={() => setDialog(false)}
          onClose={() => setDialog(false)}
        />
      </Section>

      <Section id="alerts" title="app.guide.alerts">
        <Stack spacing={1}>
          {ALERT_TYPES.map((type) => (
            <Alert
              key={type}
              severity={type}
              action={
                <Button
                  color="inherit"
                  size="small"
                  onClick={() => notify(`app.guide.alert.${type}`, { type })}
                >
                  {translate('app.guide.notify')}
                </Button>
              }
            >
              {translate(`app.guide.alert.${type}`)}
            </Alert>
          ))}
        </Stack>
      </Section>

      <Section id="progress" title="app.guide.progress">
        <LinearProgress
          variant="determinate"
          value={60}
          aria-label={translate('app.guide.progress')}
          sx={{
            height: UI.progress.height,
            '& .MuiLinearProgress-bar': { bgcolor: UI.progress.color },
          }}
        />
      </Section>

      <Section id="kanban" title="app.guide.kanban">
        <Divider sx={{ mb: 2 }} />
        <KanbanCard
          title="Andrea Keller"
          subtitle="Zürich · Website"
          status={translate('app.guide.kanbanStatus')}
          date="Nov 21, 2026"
        />
      </Section>
    </Box>
  );
}
