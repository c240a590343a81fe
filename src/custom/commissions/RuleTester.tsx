/**
 * "Which rule applies?" on the commission rules page: pick a closure, or describe the case
 * (signing date, category, client age, insurer, product, sub-product, variant, premium with its
 * payment cycle or the annual premium, production sum) → POST /api/commission-rules/test. Shows
 * the rule chosen (a link to it), the other candidates with their specificity, the courtage with
 * its arithmetic and the legal-cap flag, and for a contract the people's lines it would give.
 * The server's refusals show beside the inputs.
 */
import {
  Alert,
  Box,
  Button as MuiButton,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  InputAdornment,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { Form, NumberInput, ReferenceField, required, useNotify, useTranslate } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { api, fieldErrorsOf, messageOf } from '../../dataProvider/apiClient.ts';
import { LocalizedDateInput } from '../../i18n/components.tsx';
import { formatNumber } from '../../i18n/format.ts';
import { EnumInput, ReferencePicker } from '../../resources/inputs.tsx';
import { getModel } from '../../resources/registry.ts';
import { enumKey, fieldLabelKey } from '../../schema/labels.ts';
import { resourceHref } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import { Amount, CapFlag, ExplainSteps } from './components.tsx';
import {
  specificityKeys,
  subProductOwners,
  type TesterAnswer,
  testerBody,
  type TesterMode,
  type TesterValues,
} from './model.ts';

const GRID = {
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(250px, 1fr))',
  columnGap: 2,
  width: '100%',
} as const;

const CURRENCY = 'CHF';
const chfAdornment = {
  input: { startAdornment: <InputAdornment position="start">{CURRENCY}</InputAdornment> },
};

const contractField = (name: string) => {
  const field = getModel('contracts').fields.find((candidate) => candidate.name === name);
  if (!field) throw new Error(`contracts has no field ${name}`);
  return field;
};

const t = (name: string) => `app.commissionRules.tester.${name}`;

function CaseInputs() {
  const productId = useWatch({ name: 'productId' }) as number | null | undefined;
  const subProductId = useWatch({ name: 'subProductId' }) as number | null | undefined;
  const category = contractField('category');
  const cycle = contractField('paymentCycle');
  return (
    <Box sx={GRID}>
      <LocalizedDateInput
        source="signingDate"
        label={t('signingDate')}
        validate={required()}
        fullWidth
      />
      <EnumInput
        source="category"
        label={fieldLabelKey('contracts', 'category')}
        schema={category.schema}
        enumName={category.enumName ?? ''}
      />
      <NumberInput source="clientAge" label={t('clientAge')} step={1} min={0} max={130} />
      <ReferencePicker
        source="companyId"
        reference="companies"
        label={fieldLabelKey('contracts', 'companyId')}
      />
      <ReferencePicker
        source="productId"
        reference="products"
        label={fieldLabelKey('contracts', 'productId')}
        validate={[required()]}
      />
      <ReferencePicker
        source="subProductId"
        reference="sub-products"
        label={t('subProduct')}
        filter={productId ? { productId: subProductOwners([productId]) } : undefined}
      />
      <ReferencePicker
        source="subProductVariantId"
        reference="sub-product-variants"
        label={t('variant')}
        filter={subProductId ? { subProductId } : undefined}
      />
      <NumberInput
        source="premium"
        label={t('premium')}
        min={0}
        slotProps={chfAdornment}
        helperText={t('premiumHelp')}
      />
      <EnumInput
        source="paymentCycle"
        label={fieldLabelKey('contracts', 'paymentCycle')}
        schema={cycle.schema}
        enumName={cycle.enumName ?? ''}
      />
      <NumberInput
        source="annualPremium"
        label={t('annualPremium')}
        min={0}
        slotProps={chfAdornment}
        helperText={t('annualPremiumHelp')}
      />
      <NumberInput
        source="productionSum"
        label={t('productionSum')}
        min={0}
        slotProps={chfAdornment}
      />
    </Box>
  );
}

function ContractInput() {
  return (
    <Box sx={{ maxWidth: 420 }}>
      <ReferencePicker
        source="contractId"
        reference="contracts"
        label={t('contract')}
        filter={{ contractType: 'closure' }}
        validate={[required()]}
      />
    </Box>
  );
}

/** The mode switch; switching clears what the other mode's answer showed. */
function ModeSwitch({
  mode,
  onChange,
}: {
  mode: TesterMode;
  onChange: (mode: TesterMode) => void;
}) {
  const translate = useTranslate();
  const form = useFormContext();
  return (
    <ToggleButtonGroup
      exclusive
      size="small"
      value={mode}
      onChange={(_event, value: TesterMode | null) => {
        if (!value) return;
        form.clearErrors();
        onChange(value);
      }}
      sx={{ mb: 2 }}
    >
      <ToggleButton value="case" data-testid="tester-mode-case">
        {translate(t('modeCase'))}
      </ToggleButton>
      <ToggleButton value="contract" data-testid="tester-mode-contract">
        {translate(t('modeContract'))}
      </ToggleButton>
    </ToggleButtonGroup>
  );
}

/** How specific a rule is, in words: "Sub-product, with insurer". */
function Specificity({ value }: { value: number }) {
  const translate = useTranslate();
  const keys = specificityKeys(value);
  const level = translate(keys.level);
  return <span>{keys.withCompany ? translate(t('level.withCompany'), { level }) : level}</span>;
}

export function Result({ answer, mode }: { answer: TesterAnswer; mode: TesterMode }) {
  const translate = useTranslate();
  const area = useArea();
  const ruleHref = (id: number) => resourceHref(area, 'commission-rules', 'edit', id) ?? '';
  // The chosen rules: the acquisition rule, and the portfolio rule of the later years.
  const isChosen = (candidate: TesterAnswer['candidates'][number]) =>
    candidate.commissionType === 'portfolio'
      ? candidate.id === answer.portfolio?.rule?.id
      : candidate.id === answer.rule?.id;
  return (
    <Box data-testid="tester-result" sx={{ mt: 2 }}>
      <Divider sx={{ mb: 2 }} />
      {answer.rule ? (
        <Typography variant="subtitle1" data-testid="tester-rule">
          {translate(t('ruleChosen'))}{' '}
          <Link to={ruleHref(answer.rule.id)} data-testid="tester-rule-link">
            {answer.rule.name}
          </Link>
          {answer.rule.version ? (
            <Typography component="span" variant="body2" color="text.secondary">
              {' '}
              {translate(t('version'), { version: answer.rule.version })}
            </Typography>
          ) : null}
        </Typography>
      ) : (
        <Alert severity="warning" data-testid="tester-no-rule">
          {translate(t('noRule'))}
        </Alert>
      )}

      {answer.candidates.length > 0 ? (
        <Box sx={{ mt: 1.5 }}>
          <Typography variant="subtitle2" color="text.secondary">
            {translate(t('candidates'))}
          </Typography>
          <Table size="small" data-testid="tester-candidates">
            <TableHead>
              <TableRow>
                <TableCell>{translate(fieldLabelKey('commission-rules', 'name'))}</TableCell>
                <TableCell>
                  {translate(fieldLabelKey('commission-rules', 'commissionType'))}
                </TableCell>
                <TableCell>{translate(t('specificity'))}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {answer.candidates.map((candidate) => (
                <TableRow
                  key={`${candidate.commissionType ?? ''}-${candidate.id}`}
                  data-testid="tester-candidate"
                >
                  <TableCell>
                    <Link to={ruleHref(candidate.id)}>{candidate.name}</Link>
                  </TableCell>
                  <TableCell>
                    {candidate.commissionType
                      ? translate(enumKey('commissionType', candidate.commissionType))
                      : ''}
                  </TableCell>
                  <TableCell>
                    <Specificity value={candidate.specificity} />
                  </TableCell>
                  <TableCell>
                    {isChosen(candidate) ? (
                      <Chip size="small" color="success" label={translate(t('chosen'))} />
                    ) : null}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      ) : null}

      {answer.courtage ? (
        <Box sx={{ mt: 2 }} data-testid="tester-courtage">
          <Stack direction="row" sx={{ alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
            <Typography variant="subtitle2">{translate(t('courtage'))}</Typography>
            <Typography variant="h6" component="span" data-testid="tester-courtage-amount">
              <Amount centimes={answer.courtage.amount} strong />
            </Typography>
            {answer.courtage.capExceeded ? <CapFlag capAmount={answer.courtage.capAmount} /> : null}
          </Stack>
          <ExplainSteps steps={answer.courtage.explain} testId="tester-courtage-explain" />
        </Box>
      ) : null}

      {answer.portfolio?.rule ? (
        <Typography variant="body2" sx={{ mt: 1.5 }} data-testid="tester-portfolio">
          {translate(t('portfolio'))}{' '}
          <Link to={ruleHref(answer.portfolio.rule.id)}>{answer.portfolio.rule.name}</Link>
          {': '}
          <Amount centimes={answer.portfolio.amount} />
        </Typography>
      ) : null}

      {mode === 'contract' && answer.lines ? (
        <Box sx={{ mt: 2 }}>
          <Typography variant="subtitle2" color="text.secondary">
            {translate(t('lines'))}
          </Typography>
          {answer.lines.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              {translate(t('noLines'))}
            </Typography>
          ) : (
            <Table size="small" data-testid="tester-lines">
              <TableHead>
                <TableRow>
                  <TableCell>{translate(fieldLabelKey('commission-lines', 'kind'))}</TableCell>
                  <TableCell>{translate(fieldLabelKey('commission-lines', 'userId'))}</TableCell>
                  <TableCell align="right">
                    {translate(fieldLabelKey('commission-lines', 'stars'))}
                  </TableCell>
                  <TableCell align="right">
                    {translate(fieldLabelKey('commission-lines', 'amount'))}
                  </TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {answer.lines.map((line, index) => (
                  <TableRow key={`${line.kind}-${line.userId ?? 'none'}-${index}`}>
                    <TableCell sx={{ verticalAlign: 'top' }}>
                      {translate(enumKey('commissionLineKind', line.kind))}
                    </TableCell>
                    <TableCell sx={{ verticalAlign: 'top' }}>
                      {line.userId ? (
                        <ReferenceField
                          record={line}
                          source="userId"
                          reference="users"
                          link={false}
                        />
                      ) : line.subBrokerId ? (
                        <ReferenceField
                          record={line}
                          source="subBrokerId"
                          reference="sub-brokers"
                          link={false}
                        />
                      ) : (
                        translate('app.commissions.brokerage')
                      )}
                      <ExplainSteps steps={line.explain} testId="tester-line-explain" />
                    </TableCell>
                    <TableCell align="right" sx={{ verticalAlign: 'top' }}>
                      {line.stars === null || line.stars === undefined
                        ? ''
                        : formatNumber(line.stars)}
                    </TableCell>
                    <TableCell align="right" sx={{ verticalAlign: 'top' }}>
                      <Amount centimes={line.amount} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </Box>
      ) : null}
    </Box>
  );
}

export function RuleTester({ onClose }: { onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [mode, setMode] = useState<TesterMode>('case');
  const [answer, setAnswer] = useState<{ mode: TesterMode; data: TesterAnswer } | null>(null);
  const [busy, setBusy] = useState(false);

  const test = async (values: TesterValues) => {
    setBusy(true);
    try {
      const result = await api.json<{ data: TesterAnswer }>('POST', 'commission-rules/test', {
        body: testerBody(mode, values),
      });
      setAnswer({ mode, data: result.data });
      return undefined;
    } catch (error) {
      setAnswer(null);
      const errors = fieldErrorsOf(error);
      if (Object.keys(errors).length > 0) return errors;
      notify(messageOf(error), { type: 'error' });
      return undefined;
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth data-testid="rule-tester">
      <Form
        onSubmit={(values: Record<string, unknown>) => test(values as TesterValues)}
        defaultValues={{ category: 'private', paymentCycle: 'monthly' }}
      >
        <DialogTitle>{translate(t('title'))}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
            {translate(t('intro'))}
          </Typography>
          <ModeSwitch
            mode={mode}
            onChange={(next) => {
              setMode(next);
              setAnswer(null);
            }}
          />
          {mode === 'contract' ? <ContractInput /> : <CaseInputs />}
          {answer && answer.mode === mode ? <Result answer={answer.data} mode={mode} /> : null}
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={onClose}>{translate('ra.action.close')}</MuiButton>
          <MuiButton type="submit" variant="contained" disabled={busy} data-testid="tester-run">
            {translate(t('run'))}
          </MuiButton>
        </DialogActions>
      </Form>
    </Dialog>
  );
}
