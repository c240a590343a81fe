/**
 * The inputs of each of the wizard's five steps (vehicle, use, drivers, cover, history), every
 * field of the draft with a fitting input. Required marks follow STEP_REQUIRED; the rules that
 * depend on other answers (permit, deductibles) show their inputs when they apply.
 */
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import { Box, Button, IconButton, Paper, Stack, Tooltip, Typography } from '@mui/material';
import { type ReactNode, useContext } from 'react';
import { useTranslate } from 'react-admin';
import sharedDefinitions from '../../../schemas/definitions.json';
import {
  CANTONS,
  type ComparisonDraftFields,
  type ComparisonPerson,
  type ComparisonStep,
  STEP_REQUIRED,
} from '../../schema/comparison.ts';
import { enumKey } from '../../schema/labels.ts';
import {
  AutocompleteInput,
  DateInput,
  FormContext,
  NumberInput,
  type Option,
  SelectInput,
  TextInput,
  YesNoInput,
} from './inputs.tsx';
import { type HouseholdAdult, RESOURCE } from './model.ts';

const options = (enumName: string, values: readonly (string | number)[]): Option[] =>
  values.map((value) => ({ value, label: enumKey(enumName, value) }));

const COUNTRIES = options('country', sharedDefinitions.definitions.country.enum);
const PERMITS = options('permitType', sharedDefinitions.definitions.permitType.enum);
const CANTON_OPTIONS = options('canton', CANTONS);
const USAGES = options('carUsage', ['private', 'way_to_work', 'work']);
const GARAGES = options('garageType', ['none', 'carport', 'private_garage', 'shared_garage']);
const TITLES = options('driverTitle', ['mr', 'ms']);
const COVERS = options('carCover', ['liability', 'partial_casco', 'full_casco']);
const BONUS = options('bonusProtection', ['none', 'liability', 'liability_full_casco']);
const DEDUCTIBLE_PARTIAL = options(`${RESOURCE}.coverage.deductiblePartial`, [0, 200, 500, 1000]);
const DEDUCTIBLE_FULL = options(
  `${RESOURCE}.coverage.deductibleFull`,
  [500, 1000, 1500, 2000, 3000],
);
// Months as numbers (01 … 12), as on the registration document.
const MONTHS: Option[] = Array.from({ length: 12 }, (_, index) => ({
  value: index + 1,
  label: String(index + 1).padStart(2, '0'),
}));

/** Two columns on a wide screen, one on a narrow one. */
function Grid({ children }: { children: ReactNode }) {
  return (
    <Box
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
        gap: 2,
        alignItems: 'start',
      }}
    >
      {children}
    </Box>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <Stack spacing={1.5}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {translate(title)}
      </Typography>
      {children}
    </Stack>
  );
}

const isRequired = (step: ComparisonStep, path: string) => STEP_REQUIRED[step].includes(path);

function VehicleStep() {
  const req = (path: string) => isRequired('vehicle', path);
  return (
    <Grid>
      <TextInput path="car.manufacturer" required={req('car.manufacturer')} maxLength={100} />
      <TextInput
        path="car.type"
        required={req('car.type')}
        maxLength={200}
        hint="app.fs24.hint.type"
      />
      <NumberInput
        path="car.firstRegistrationYear"
        required={req('car.firstRegistrationYear')}
        min={1950}
        max={2100}
      />
      <SelectInput
        path="car.firstRegistrationMonth"
        required={req('car.firstRegistrationMonth')}
        options={MONTHS}
      />
      <NumberInput
        path="car.kilometres"
        required={req('car.kilometres')}
        min={0}
        max={1000000}
        hint="app.fs24.hint.kilometres"
      />
      <NumberInput
        path="car.extrasValuation"
        min={0}
        max={500000}
        hint="app.fs24.hint.extrasValuation"
      />
      <NumberInput
        path="car.purchaseYear"
        min={1950}
        max={2100}
        hint="app.fs24.hint.purchaseYear"
      />
      <TextInput path="car.detailsId" maxLength={50} hint="app.fs24.hint.detailsId" />
    </Grid>
  );
}

function UseStep() {
  const req = (path: string) => isRequired('use', path);
  return (
    <Grid>
      <SelectInput path="canton" required={req('canton')} options={CANTON_OPTIONS} sort />
      <NumberInput
        path="yearlyKm"
        required={req('yearlyKm')}
        min={1000}
        max={100000}
        step={1000}
        hint="app.fs24.hint.yearlyKm"
      />
      <SelectInput path="usage" required={req('usage')} options={USAGES} />
      <SelectInput path="garageType" required={req('garageType')} options={GARAGES} />
    </Grid>
  );
}

const sameName = (a: HouseholdAdult, b: ComparisonPerson) =>
  (a.firstName ?? '') === (b.firstName ?? '') &&
  (a.lastName ?? '') === (b.lastName ?? '') &&
  (a.birthdate ?? '') === (b.birthdate ?? '');

const MAX_OTHER_USERS = 5;

function OtherUsers({ household }: { household: HouseholdAdult[] }) {
  const translate = useTranslate();
  const form = useContext(FormContext);
  const users = ((form.fields as ComparisonDraftFields).otherUsers ?? []) as ComparisonPerson[];
  const add = (person: ComparisonPerson) => form.set('otherUsers', [...users, person]);
  const remove = (index: number) =>
    form.set(
      'otherUsers',
      users.filter((_, at) => at !== index),
    );
  const full = users.length >= MAX_OTHER_USERS;
  const fromHousehold = household.filter((adult) => !users.some((user) => sameName(adult, user)));
  return (
    <Stack spacing={1.5} data-testid="fs24-other-users">
      {users.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {translate('app.fs24.otherUsers.none')}
        </Typography>
      ) : null}
      {users.map((_, index) => (
        <Paper
          key={index}
          variant="outlined"
          sx={{ p: 1.5 }}
          data-testid={`fs24-other-user-${index}`}
        >
          <Stack direction="row" sx={{ alignItems: 'center', mb: 1 }}>
            <Typography variant="body2" sx={{ flex: 1, fontWeight: 500 }}>
              {translate('app.fs24.otherUsers.person', { number: index + 1 })}
            </Typography>
            <Tooltip title={translate('app.fs24.otherUsers.remove')}>
              <IconButton
                size="small"
                onClick={() => remove(index)}
                aria-label={translate('app.fs24.otherUsers.remove')}
                disabled={form.disabled}
              >
                <DeleteIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          </Stack>
          <Grid>
            <TextInput
              path={`otherUsers.${index}.firstName`}
              label="app.fs24.person.firstName"
              maxLength={100}
            />
            <TextInput
              path={`otherUsers.${index}.lastName`}
              label="app.fs24.person.lastName"
              maxLength={100}
            />
            <DateInput
              path={`otherUsers.${index}.birthdate`}
              label="app.fs24.person.birthdate"
              required
            />
            <DateInput
              path={`otherUsers.${index}.licenceDate`}
              label="app.fs24.person.licenceDate"
              required
            />
          </Grid>
        </Paper>
      ))}
      <Stack direction="row" useFlexGap spacing={1} sx={{ flexWrap: 'wrap' }}>
        <Button
          size="small"
          startIcon={<AddIcon />}
          onClick={() => add({})}
          disabled={full || form.disabled}
          data-testid="fs24-other-user-add"
        >
          {translate('app.fs24.otherUsers.add')}
        </Button>
        {fromHousehold.map((adult, index) => (
          <Button
            key={`${adult.firstName ?? ''}-${adult.lastName ?? ''}-${index}`}
            size="small"
            variant="outlined"
            startIcon={<PersonAddIcon />}
            onClick={() =>
              add({
                firstName: adult.firstName,
                lastName: adult.lastName,
                birthdate: adult.birthdate,
              })
            }
            disabled={full || form.disabled}
            data-testid="fs24-household-add"
          >
            {translate('app.fs24.otherUsers.fromHousehold', {
              name: [adult.firstName, adult.lastName].filter(Boolean).join(' '),
            })}
          </Button>
        ))}
      </Stack>
    </Stack>
  );
}

function DriversStep({ household }: { household: HouseholdAdult[] }) {
  const form = useContext(FormContext);
  const fields = form.fields as ComparisonDraftFields;
  const req = (path: string) => isRequired('drivers', path);
  const foreign = Boolean(fields.driver?.nationality && fields.driver.nationality !== 'CH');
  return (
    <Stack spacing={3}>
      <Section title="app.fs24.section.mainDriver">
        <Grid>
          <YesNoInput
            path="driver.isMain"
            required={req('driver.isMain')}
            hint="app.fs24.hint.isMain"
          />
          <SelectInput path="driver.title" required={req('driver.title')} options={TITLES} />
          <TextInput path="driver.firstName" maxLength={100} />
          <TextInput path="driver.lastName" maxLength={100} />
          <DateInput path="driver.birthdate" required={req('driver.birthdate')} />
          <DateInput path="driver.licenceDate" required={req('driver.licenceDate')} />
          <AutocompleteInput
            path="driver.nationality"
            required={req('driver.nationality')}
            options={COUNTRIES}
          />
          {foreign ? (
            <SelectInput path="driver.permit" required options={PERMITS} />
          ) : (
            <Box sx={{ display: { xs: 'none', sm: 'block' } }} />
          )}
          {foreign ? <DateInput path="driver.permitSince" /> : null}
          {foreign ? <Box sx={{ display: { xs: 'none', sm: 'block' } }} /> : null}
          <TextInput path="driver.street" maxLength={200} />
          <Box sx={{ display: 'grid', gridTemplateColumns: '8rem 1fr', gap: 2 }}>
            <TextInput
              path="driver.postcode"
              required={req('driver.postcode')}
              maxLength={4}
              inputMode="numeric"
            />
            <TextInput path="driver.city" required={req('driver.city')} maxLength={100} />
          </Box>
        </Grid>
      </Section>
      <Section title="app.fs24.section.otherUsers">
        <OtherUsers household={household} />
      </Section>
      <YesNoInput
        path="under25Usage"
        required={req('under25Usage')}
        hint="app.fs24.hint.under25Usage"
      />
    </Stack>
  );
}

function CoverStep() {
  const form = useContext(FormContext);
  const cover = (form.fields as ComparisonDraftFields).coverage ?? {};
  const req = (path: string) => isRequired('cover', path);
  const casco = cover.basic === 'partial_casco' || cover.basic === 'full_casco';
  return (
    <Stack spacing={3}>
      <Section title="app.fs24.section.basicCover">
        <Grid>
          <YesNoInput
            path="coverage.leased"
            required={req('coverage.leased')}
            hint="app.fs24.hint.leased"
          />
          <SelectInput
            path="coverage.basic"
            required={req('coverage.basic')}
            options={COVERS}
            hint="app.fs24.hint.basic"
          />
          {casco ? (
            <SelectInput path="coverage.deductiblePartial" required options={DEDUCTIBLE_PARTIAL} />
          ) : null}
          {cover.basic === 'full_casco' ? (
            <SelectInput path="coverage.deductibleFull" required options={DEDUCTIBLE_FULL} />
          ) : null}
          <SelectInput
            path="coverage.bonusProtection"
            required={req('coverage.bonusProtection')}
            options={BONUS}
          />
          <DateInput path="coverage.startDate" required={req('coverage.startDate')} />
          <TextInput path="coverage.previousInsurer" maxLength={100} />
        </Grid>
      </Section>
      <Section title="app.fs24.section.extras">
        <Grid>
          <YesNoInput path="coverage.garage" hint="app.fs24.hint.garage" />
          <YesNoInput path="coverage.parkingExtra" />
          <YesNoInput path="coverage.unlimitedDamage" hint="app.fs24.hint.unlimitedDamage" />
          <YesNoInput path="coverage.passengerAccident" />
          <NumberInput
            path="coverage.valuableItems"
            min={0}
            max={50000}
            step={500}
            hint="app.fs24.hint.valuableItems"
          />
          <YesNoInput path="coverage.currentDamage" hint="app.fs24.hint.currentDamage" />
        </Grid>
      </Section>
    </Stack>
  );
}

function HistoryStep() {
  const translate = useTranslate();
  const req = (path: string) => isRequired('history', path);
  return (
    <Stack spacing={2}>
      <Typography variant="body2" color="text.secondary">
        {translate('app.fs24.hint.history')}
      </Typography>
      <YesNoInput path="history.cancelledContract" required={req('history.cancelledContract')} />
      <YesNoInput
        path="history.rejectedApplication"
        required={req('history.rejectedApplication')}
      />
      <YesNoInput
        path="history.damageOrFinesOver250"
        required={req('history.damageOrFinesOver250')}
      />
    </Stack>
  );
}

export function StepFields({
  step,
  household,
}: {
  step: ComparisonStep;
  household: HouseholdAdult[];
}) {
  if (step === 'vehicle') return <VehicleStep />;
  if (step === 'use') return <UseStep />;
  if (step === 'drivers') return <DriversStep household={household} />;
  if (step === 'cover') return <CoverStep />;
  return <HistoryStep />;
}
