/**
 * The feedback of an appointment (SPEC §3 Feedback): whether it took place (else whether the
 * customer was reached by phone), the status it sets (took place / first took place, or did not
 * take place), note, comment, address; optionally a reminder (due date, time, subject,
 * description, category) and a follow-up appointment (day, start, end, address taken from the
 * appointment, comment, type). One call, POST /api/appointments/:id/feedback, which stores it all
 * in one transaction; the server's errors show beside the inputs (`reminder.dueDate`, the
 * follow-up's on its day and times), others in a notification. An optional photo (the feedback's
 * image, ./FeedbackImage.tsx) goes right after, to POST /api/feedbacks/:id/image; when it is
 * refused the feedback stands and the user is told to add the photo on the appointment's page.
 */
import RateReviewIcon from '@mui/icons-material/RateReview';
import {
  Box,
  Button as MuiButton,
  Collapse,
  Dialog,
  DialogContent,
  DialogTitle,
  Divider,
  Typography,
} from '@mui/material';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import {
  BooleanInput,
  Button,
  RadioButtonGroupInput,
  required,
  SaveButton,
  TextInput,
  Toolbar,
  useNotify,
  useRefresh,
  useTranslate,
  type Validator,
} from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { api, fieldErrorsOf, messageOf, statusOf } from '../../dataProvider/apiClient.ts';
import { LocalizedDateInput } from '../../i18n/components.tsx';
import { SimpleForm } from '../../resources/forms/forms.tsx';
import { EnumInput } from '../../resources/inputs.tsx';
import { getModel } from '../../resources/registry.ts';
import { appointmentStatusKey } from '../../schema/appointments.ts';
import { fieldLabelKey } from '../../schema/labels.ts';
import {
  type Appointment,
  feedbackBody,
  feedbackErrorsForForm,
  feedbackStatusChoices,
  type FeedbackValues,
  fieldOf,
  shortTime,
  swissTimesOf,
  swissToday,
} from './model.ts';
import { FeedbackImagePicker, uploadFeedbackImage } from './FeedbackImage.tsx';
import { TimeInput } from './TimeInput.tsx';

const GRID = {
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))',
  columnGap: 2,
  width: '100%',
} as const;

const feedbackLabel = (name: string) => fieldLabelKey('feedbacks', name);
const reminderLabel = (name: string) => fieldLabelKey('reminders', name);

const notBeforeToday: Validator = (value: unknown) =>
  typeof value === 'string' && value < swissToday() ? 'app.errors.notInPast' : undefined;

const endAfterStart: Validator = (value: unknown, values: Record<string, unknown>) => {
  const end = shortTime(value);
  const start = shortTime((values.followUp as Record<string, unknown> | undefined)?.startTime);
  return end && start && end <= start ? 'app.errors.endBeforeStart' : undefined;
};

function Part({ title, children }: { title: string; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <Box sx={{ width: '100%', mt: 1 }}>
      <Typography variant="subtitle2" color="text.secondary">
        {translate(title)}
      </Typography>
      {children}
    </Box>
  );
}

/** Whether it took place decides the statuses offered; a status that no longer fits is replaced. */
function HowItWent({ appointment }: { appointment: Appointment }) {
  const translate = useTranslate();
  const { setValue, getValues } = useFormContext();
  const tookPlace = useWatch({ name: 'hasTakenPlace' }) === 'yes';
  const statuses = useMemo(() => feedbackStatusChoices(tookPlace), [tookPlace]);
  useEffect(() => {
    const current = Number(getValues('status'));
    if (statuses.includes(current as never)) return;
    const first = appointment.appointmentType === 'first' && tookPlace ? 10 : statuses[0];
    setValue('status', first, { shouldDirty: true });
  }, [tookPlace, statuses, appointment.appointmentType, getValues, setValue]);
  return (
    <Box sx={{ ...GRID, gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))' }}>
      <RadioButtonGroupInput
        source="hasTakenPlace"
        label={feedbackLabel('hasTakenPlace')}
        choices={[
          { id: 'yes', name: 'ra.boolean.true' },
          { id: 'no', name: 'ra.boolean.false' },
        ]}
        validate={required()}
        data-testid="feedback-taken-place"
      />
      <RadioButtonGroupInput
        source="status"
        label={feedbackLabel('status')}
        choices={statuses.map((status) => ({
          id: status,
          name: translate(appointmentStatusKey(status)),
        }))}
        translateChoice={false}
        parse={(value: unknown) => (value === '' || value === null ? null : Number(value))}
        validate={required()}
        data-testid="feedback-status"
      />
      {tookPlace ? null : (
        <BooleanInput source="isReachedByPhone" label={feedbackLabel('isReachedByPhone')} />
      )}
    </Box>
  );
}

function ReminderPart() {
  const on = useWatch({ name: 'withReminder' }) === true;
  const category = getModel('reminders').fields.find((field) => field.name === 'category');
  return (
    <>
      <BooleanInput
        source="withReminder"
        label="app.appointments.feedback.withReminder"
        helperText={false}
      />
      <Collapse in={on} unmountOnExit sx={{ width: '100%' }}>
        <Box sx={GRID} data-section="feedback-reminder">
          <LocalizedDateInput
            source="reminder.dueDate"
            label={reminderLabel('dueDate')}
            validate={required()}
          />
          <TimeInput source="reminder.time" label={reminderLabel('time')} />
          <TextInput
            source="reminder.subject"
            label={reminderLabel('subject')}
            validate={required()}
          />
          {category ? (
            <EnumInput
              source="reminder.category"
              label={reminderLabel('category')}
              schema={category.schema}
              enumName={category.enumName ?? 'reminderCategory'}
            />
          ) : null}
        </Box>
        <TextInput
          source="reminder.description"
          label={reminderLabel('description')}
          multiline
          minRows={2}
          fullWidth
        />
      </Collapse>
    </>
  );
}

function FollowUpPart() {
  const on = useWatch({ name: 'withFollowUp' }) === true;
  const type = fieldOf('appointmentType');
  const label = (name: string) => `app.appointments.feedback.followUp.${name}`;
  return (
    <>
      <BooleanInput
        source="withFollowUp"
        label="app.appointments.feedback.withFollowUp"
        helperText={false}
      />
      <Collapse in={on} unmountOnExit sx={{ width: '100%' }}>
        <Box sx={GRID} data-section="feedback-follow-up">
          <LocalizedDateInput
            source="followUp.date"
            label={fieldLabelKey('appointments', 'date')}
            validate={[required(), notBeforeToday]}
          />
          <TimeInput
            source="followUp.startTime"
            label={fieldLabelKey('appointments', 'startTime')}
            validate={[required()]}
          />
          <TimeInput
            source="followUp.endTime"
            label={fieldLabelKey('appointments', 'endTime')}
            validate={[required(), endAfterStart]}
          />
          <EnumInput
            source="followUp.type"
            label={fieldLabelKey('appointments', 'appointmentType')}
            schema={type.schema}
            enumName={type.enumName ?? 'appointmentType'}
          />
          <TextInput source="followUp.address" label={label('address')} />
          <TextInput source="followUp.addressNo" label={label('addressNo')} />
          <TextInput source="followUp.zipcode" label={label('zipcode')} />
          <TextInput source="followUp.city" label={label('city')} />
        </Box>
        <TextInput
          source="followUp.comment"
          label={fieldLabelKey('appointments', 'comment')}
          multiline
          minRows={2}
          fullWidth
        />
      </Collapse>
    </>
  );
}

function DialogToolbar({ onCancel }: { onCancel: () => void }) {
  return (
    <Toolbar sx={{ justifyContent: 'flex-end', gap: 1 }}>
      <Button label="ra.action.cancel" onClick={onCancel} data-testid="feedback-cancel" />
      <SaveButton label="app.appointments.feedback.save" alwaysEnable data-testid="feedback-save" />
    </Toolbar>
  );
}

/** The dialog's starting values: the follow-up at the appointment's address and times. */
function initialValues(appointment: Appointment): FeedbackValues {
  const times = swissTimesOf(appointment);
  return {
    hasTakenPlace: 'yes',
    status: appointment.appointmentType === 'first' ? 10 : 2,
    isReachedByPhone: false,
    withReminder: false,
    reminder: {},
    withFollowUp: false,
    followUp: {
      startTime: times?.start,
      endTime: times?.end,
      address: appointment.street ?? undefined,
      addressNo: appointment.number ?? undefined,
      zipcode: appointment.zip ?? undefined,
      city: appointment.city ?? undefined,
      type: 'follow_up',
    },
  };
}

export function FeedbackDialog({
  appointment,
  open,
  onClose,
}: {
  appointment: Appointment;
  open: boolean;
  onClose: () => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const record = useMemo(
    () => ({ id: appointment.id, ...initialValues(appointment) }),
    [appointment],
  );
  const [image, setImage] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const submit = async (values: Record<string, unknown>) => {
    let feedbackId: number;
    try {
      const answer = await api.json<{ data: { feedback: { id: number } } }>(
        'POST',
        `appointments/${appointment.id}/feedback`,
        {
          // No version: the server's own passes touch the record (the missing-feedback notice),
          // and the feedback depends only on what the server checks itself (planned, none given).
          body: feedbackBody(values as FeedbackValues),
        },
      );
      feedbackId = answer.data.feedback.id;
    } catch (error) {
      const errors = fieldErrorsOf(error);
      if (statusOf(error) === 422 && Object.keys(errors).length > 0) {
        return feedbackErrorsForForm(errors);
      }
      notify(messageOf(error), { type: 'error' });
      return undefined;
    }
    if (image) {
      setProgress(0);
      try {
        await uploadFeedbackImage(feedbackId, image, setProgress);
      } catch (error) {
        // The feedback is saved (and cannot be given twice): say so, and why the photo is not.
        notify('app.appointments.feedback.image.notSaved', {
          type: 'warning',
          multiLine: true,
          autoHideDuration: 10_000,
          messageArgs: { reason: translate(messageOf(error)) },
        });
        onClose();
        refresh();
        return undefined;
      } finally {
        setProgress(null);
      }
    }
    notify('app.appointments.feedback.saved', { type: 'success' });
    onClose();
    refresh();
    return undefined;
  };
  return (
    <Dialog
      open={open}
      onClose={onClose}
      maxWidth="md"
      fullWidth
      aria-labelledby="feedback-dialog-title"
      data-testid="feedback-dialog"
    >
      <DialogTitle id="feedback-dialog-title">
        {translate('app.appointments.feedback.title')}
      </DialogTitle>
      <DialogContent dividers sx={{ p: 0 }}>
        <SimpleForm
          record={record}
          onSubmit={submit}
          warnWhenUnsavedChanges={false}
          toolbar={<DialogToolbar onCancel={onClose} />}
          sx={{ pt: 1 }}
        >
          <HowItWent appointment={appointment} />
          <Box sx={GRID}>
            <TextInput source="note" label={feedbackLabel('note')} multiline minRows={2} />
            <TextInput source="comment" label={feedbackLabel('comment')} multiline minRows={2} />
            <TextInput source="address" label={feedbackLabel('address')} />
          </Box>
          <FeedbackImagePicker file={image} onChange={setImage} progress={progress} />
          <Divider sx={{ width: '100%', my: 1 }} />
          <Part title="app.appointments.feedback.next">
            <ReminderPart />
            <FollowUpPart />
          </Part>
        </SimpleForm>
      </DialogContent>
    </Dialog>
  );
}

/** "Give feedback": opens the dialog. */
export function FeedbackButton({ appointment }: { appointment: Appointment }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <MuiButton
        variant="contained"
        size="small"
        startIcon={<RateReviewIcon />}
        onClick={() => setOpen(true)}
        data-testid="appointment-feedback"
      >
        <FeedbackButtonLabel />
      </MuiButton>
      {open ? (
        <FeedbackDialog appointment={appointment} open={open} onClose={() => setOpen(false)} />
      ) : null}
    </>
  );
}

function FeedbackButtonLabel() {
  const translate = useTranslate();
  return <>{translate('app.appointments.feedback.give')}</>;
}
