/**
 * A phone number as people read it (src/schema/phone.ts): stored as E.164 (`+41793225035`),
 * shown as `079 322 50 35` for a Swiss number and `+49 30 123456` for others, as a `tel:` link.
 * Used by the generated views for every `format: phone` field and by hand-written screens.
 */
import { Link } from '@mui/material';
import type { MouseEvent } from 'react';
import { type FieldProps, useFieldValue } from 'react-admin';
import { formatPhone, phoneHref } from '../schema/phone.ts';

/** A click on the link must not also open the row it sits in. */
const stopPropagation = (event: MouseEvent) => event.stopPropagation();

/** The number as a link, or nothing when there is none. */
export function PhoneLink({ value }: { value: unknown }) {
  if (typeof value !== 'string' || value === '') return null;
  return (
    // A number is read in one piece: never broken over two lines.
    <Link
      href={phoneHref(value)}
      onClick={stopPropagation}
      variant="body2"
      underline="hover"
      sx={{ whiteSpace: 'nowrap' }}
    >
      {formatPhone(value)}
    </Link>
  );
}

/** react-admin field of a phone number (list and show). */
export function PhoneField(props: FieldProps) {
  const value: unknown = useFieldValue(props);
  return <PhoneLink value={value} />;
}
