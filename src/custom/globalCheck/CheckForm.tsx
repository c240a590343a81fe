/**
 * The inputs of a Global check: topics; the customer (birth date, sex, civil status, employment,
 * income, missing AHV years, BVG savings); the partner of a married or registered customer; the
 * children; the calculation (type, need share, disability degree) and a note. Values and server
 * messages come through ./inputs.tsx's FormContext.
 */
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import {
  Box,
  Button,
  Divider,
  FormControlLabel,
  Checkbox,
  IconButton,
  Stack,
  Tooltip,
  Typography,
} from '@mui/material';
import { useContext, type ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import {
  ChecksInput,
  DateInput,
  FormContext,
  NumberInput,
  PercentInput,
  SelectInput,
  SwitchInput,
  TextInput,
} from './inputs.tsx';
import {
  CALCULATION_TYPES,
  type CheckInputs,
  CIVIL_STATUSES,
  DISABILITY_DEGREE,
  EMPLOYMENT_STATUSES,
  GAP_YEARS,
  GROSS_INCOME,
  hasPartner,
  NEED_SHARE,
  SEXES,
  TOPICS,
} from './model.ts';

const ui = (key: string) => `app.globalCheck.ui.${key}`;

function Section({ title, children }: { title: string; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <Box>
      <Typography variant="subtitle2" color="text.secondary" sx={{ mb: 1 }}>
        {translate(title)}
      </Typography>
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
          gap: 1.5,
          alignItems: 'start',
        }}
      >
        {children}
      </Box>
    </Box>
  );
}

const wide = { gridColumn: '1 / -1' } as const;

function Children() {
  const form = useContext(FormContext);
  const translate = useTranslate();
  const children = ((form.values as CheckInputs).children ?? []) as NonNullable<
    CheckInputs['children']
  >;
  return (
    <Box data-testid="gc-children">
      <Stack direction="row" sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="subtitle2" color="text.secondary" sx={{ flex: 1 }}>
          {translate(ui('children'))}
        </Typography>
        <Button
          size="small"
          startIcon={<AddIcon />}
          onClick={() => form.set('children', [...children, { inEducation: false }])}
          data-testid="gc-child-add"
        >
          {translate(ui('addChild'))}
        </Button>
      </Stack>
      {children.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {translate(ui('noChildren'))}
        </Typography>
      ) : null}
      <Stack spacing={1.5}>
        {children.map((child, index) => (
          <Box
            key={index}
            data-testid={`gc-child-${index}`}
            sx={{
              display: 'grid',
              gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr auto' },
              gap: 1,
              alignItems: 'start',
            }}
          >
            <TextInput path={`children.${index}.firstName`} label={ui('child.firstName')} />
            <DateInput
              path={`children.${index}.birthDate`}
              label={ui('child.birthDate')}
              required
            />
            <Tooltip title={translate(ui('removeChild'))}>
              <IconButton
                size="small"
                aria-label={translate(ui('removeChild'))}
                onClick={() =>
                  form.set(
                    'children',
                    children.filter((_, other) => other !== index),
                  )
                }
                data-testid={`gc-child-remove-${index}`}
              >
                <DeleteIcon fontSize="small" />
              </IconButton>
            </Tooltip>
            <FormControlLabel
              sx={{ gridColumn: '1 / -1', mt: -1 }}
              control={
                <Checkbox
                  size="small"
                  checked={child.inEducation === true}
                  onChange={(event) =>
                    form.set(`children.${index}.inEducation`, event.target.checked)
                  }
                />
              }
              label={translate(ui('child.inEducation'))}
            />
          </Box>
        ))}
      </Stack>
    </Box>
  );
}

export function CheckForm() {
  const form = useContext(FormContext);
  const values = form.values as CheckInputs;
  const translate = useTranslate();
  return (
    <Stack spacing={2} data-testid="gc-form" divider={<Divider flexItem />}>
      <ChecksInput path="topics" options={TOPICS} />
      <Section title={ui('person')}>
        <DateInput path="birthDate" required />
        <SelectInput path="sex" options={SEXES} required />
        <SelectInput path="civilStatus" options={CIVIL_STATUSES} required />
        <SelectInput path="employmentStatus" options={EMPLOYMENT_STATUSES} required />
        <DateInput path="employmentDate" />
        <SwitchInput path="hasPensionMissingYears" />
        {values.hasPensionMissingYears ? (
          <NumberInput path="gapYears" required min={GAP_YEARS.min} max={GAP_YEARS.max} />
        ) : null}
        <Box sx={wide}>
          <NumberInput
            path="grossIncome"
            required
            min={GROSS_INCOME.min}
            max={GROSS_INCOME.max}
            step={1000}
          />
        </Box>
        <Box sx={wide}>
          <NumberInput path="bvgSavings" min={0} step={1000} hint={ui('bvgSavingsHint')} />
        </Box>
      </Section>
      {hasPartner(values.civilStatus) ? (
        <Section title={ui('partner')}>
          <DateInput path="partner.birthDate" />
          <SelectInput path="partner.sex" enumField="sex" options={SEXES} />
          <DateInput path="partner.marriedSince" />
          <Box sx={wide}>
            <NumberInput
              path="partner.grossIncome"
              min={GROSS_INCOME.min}
              max={GROSS_INCOME.max}
              step={1000}
            />
          </Box>
        </Section>
      ) : null}
      <Children />
      <Section title={ui('calculation')}>
        <Box sx={wide}>
          <SelectInput path="calculationType" options={CALCULATION_TYPES} />
        </Box>
        <Box sx={wide}>
          <PercentInput path="needShare" min={NEED_SHARE.min} max={NEED_SHARE.max} />
        </Box>
        <Box sx={wide}>
          <PercentInput
            path="disabilityDegree"
            min={DISABILITY_DEGREE.min}
            max={DISABILITY_DEGREE.max}
          />
        </Box>
        <Box sx={wide}>
          <TextInput path="note" multiline />
        </Box>
      </Section>
      {form.messages['root.serverError'] ? (
        <Typography color="error" variant="body2">
          {translate(form.messages['root.serverError'])}
        </Typography>
      ) : null}
    </Stack>
  );
}
