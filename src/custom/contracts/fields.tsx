/** Small fields the contract screens share. */
import { FunctionField, ReferenceField } from 'react-admin';
import type { ApiRecord } from '../../resources/records.ts';

/** The name of the record's household member (`householdMemberId`; members have no label of their own). */
export function MemberName() {
  return (
    <ReferenceField source="householdMemberId" reference="household-members" link={false}>
      <FunctionField<ApiRecord<'household-members'>>
        render={(member) => `${member.firstName} ${member.lastName}`}
      />
    </ReferenceField>
  );
}
