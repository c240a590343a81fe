/**
 * react-admin's forms with what every form of the app does (issue 12), so no screen repeats it:
 * - a rejected save shows each server error beside its input (react-admin's submit puts the
 *   answer's `errors` on the inputs) and, in one notification, the errors no input shows
 *   (./FormErrorSummary.tsx);
 * - leaving a changed form through the menu or a link asks first (react-admin's
 *   `warnWhenUnsavedChanges` with ./WarnWhenUnsavedChanges.tsx, which never asks while the form
 *   is being saved; it needs the data router of src/App.tsx). A form in a modal dialog
 *   passes `warnWhenUnsavedChanges={false}`: nothing can be clicked behind it, and a router serves
 *   one blocker at a time (the page's form keeps it).
 * Screens import SimpleForm and TabbedForm from here, never from react-admin (a test checks).
 * A button that saves on its own (not the form's submit button) submits through `useSubmitForm`.
 * Rules across fields go on the inputs (`withValidator`), not in a form-level `validate`: that one
 * replaces the inputs' own validators (react-hook-form uses a resolver or the inputs' rules).
 */
import { CardContent, Stack, styled } from '@mui/material';
import {
  cloneElement,
  isValidElement,
  type ReactElement,
  type ReactNode,
  useCallback,
} from 'react';
import {
  Form,
  type FormProps,
  setSubmissionErrors,
  type SimpleFormProps,
  TabbedForm as RaTabbedForm,
  type TabbedFormProps,
  TabbedFormView,
  Toolbar,
  useSaveContext,
  type Validator,
} from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { FormErrorSummary } from './FormErrorSummary.tsx';
import { WarnWhenUnsavedChanges } from './WarnWhenUnsavedChanges.tsx';

/**
 * What the forms set on react-admin's <Form>. Given to <Form> itself: react-admin's SimpleForm and
 * TabbedForm would also pass `disableInvalidFormNotification` on to a DOM element.
 */
const FORM_DEFAULTS = {
  warnWhenUnsavedChanges: true,
  WarnWhenUnsavedChangesComponent: WarnWhenUnsavedChanges,
  disableInvalidFormNotification: true,
} satisfies Partial<FormProps>;

/** react-admin's SimpleForm body: a card content with room for the phone toolbar. */
const Body = styled(CardContent)(({ theme }) => ({
  [theme.breakpoints.down('sm')]: { paddingBottom: '5em' },
}));

/** react-admin's SimpleForm (the inputs in a column, the toolbar below), with the app's defaults. */
export function SimpleForm({
  children,
  className,
  sx,
  toolbar = <Toolbar />,
  ...props
}: Omit<SimpleFormProps, 'component'>) {
  return (
    <Form {...FORM_DEFAULTS} {...props}>
      <Body className={className} sx={sx}>
        <Stack sx={{ alignItems: 'flex-start' }}>{children}</Stack>
      </Body>
      {toolbar}
      <FormErrorSummary />
    </Form>
  );
}

/** The tabs' body (react-admin's default, a CardContent) with the summary inside the form. */
function TabbedFormBody({ children }: { children?: ReactNode }) {
  return (
    <CardContent>
      {children}
      <FormErrorSummary />
    </CardContent>
  );
}

/** react-admin's TabbedForm (a Form around its TabbedFormView), with the app's defaults. */
function AppTabbedForm({
  children,
  className,
  sx,
  tabs,
  toolbar,
  syncWithLocation,
  ...props
}: Omit<TabbedFormProps, 'component'>) {
  return (
    <Form {...FORM_DEFAULTS} {...props}>
      <TabbedFormView
        className={className}
        sx={sx}
        tabs={tabs}
        toolbar={toolbar}
        syncWithLocation={syncWithLocation}
        formRootPathname={props.formRootPathname}
        component={TabbedFormBody}
      >
        {children}
      </TabbedFormView>
    </Form>
  );
}

export const TabbedForm = Object.assign(AppTabbedForm, { Tab: RaTabbedForm.Tab });

/**
 * Submits the surrounding form the way its submit button would: the form's validation, the save
 * context's save, the server's field errors on the inputs, then the summary. For a button that
 * decides first (e.g. after a duplicates check) and saves later.
 */
export function useSubmitForm(): () => Promise<void> {
  const form = useFormContext();
  const { save } = useSaveContext();
  return useCallback(
    () =>
      form.handleSubmit(async (values) => {
        const errors = await save?.(values);
        if (errors) setSubmissionErrors(errors, form.setError);
      })(),
    [form, save],
  );
}

/** An input (e.g. from inputFor) with one more validator after its own (the schema's). */
export function withValidator(
  input: ReactElement | null,
  validator: Validator,
): ReactElement | null {
  if (!isValidElement<{ validate?: Validator | Validator[] }>(input)) return input;
  const own = input.props.validate;
  const validate = own === undefined ? [] : Array.isArray(own) ? own : [own];
  return cloneElement(input, { validate: [...validate, validator] });
}
