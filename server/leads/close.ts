/**
 * Closing a lead as 'blacklist' (issue 16; DOMAIN.md §3 "honour it everywhere"): its person goes
 * on the blacklist (customer, e-mail address, phone number, names), and the person's other open
 * leads are closed as 'blacklist' too, at the top of the Done column — in the caller's
 * transaction.
 */
import { sql } from 'kysely';
import { toE164 } from '../../src/schema/phone.ts';
import type { DB } from '../db/index.ts';
import type { ResourceRow } from '../db/resource.ts';
import { lockColumn, topPositions } from './positions.ts';

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

export async function blacklistPerson(
  db: DB,
  lead: ResourceRow,
  userId: number | null,
): Promise<void> {
  const customerId = typeof lead.customer_id === 'number' ? lead.customer_id : null;
  // A lead of a customer: the customer's own contact details count as well.
  const customer = customerId
    ? await db
        .selectFrom('customers')
        .select(['email', 'phone_number', 'first_name', 'last_name', 'organization'])
        .where('id', '=', customerId)
        .executeTakeFirst()
    : undefined;
  const email = text(lead.email) ?? text(customer?.email);
  const phoneText = text(lead.phone_number) ?? text(customer?.phone_number);
  const phone = phoneText ? (toE164(phoneText) ?? phoneText) : null;
  await db
    .insertInto('blacklist_entries')
    .values({
      customer_id: customerId,
      email,
      phone_number: phone,
      first_name: text(lead.first_name) ?? text(customer?.first_name),
      last_name: text(lead.last_name) ?? text(customer?.last_name),
      organization: text(lead.organization) ?? text(customer?.organization),
      lead_id: Number(lead.id),
      created_by: userId,
    })
    .execute();
  // The person's other open leads.
  const others = await db
    .selectFrom('leads')
    .select('id')
    .where('id', '<>', Number(lead.id))
    .where('status', '<>', 'closed')
    .where((eb) =>
      eb.or([
        ...(customerId ? [eb('customer_id', '=', customerId)] : []),
        ...(email ? [eb(sql`lower(email)`, '=', email.toLowerCase())] : []),
        ...(phone ? [eb('phone_number', '=', phone)] : []),
      ]),
    )
    .orderBy('id')
    .execute();
  if (others.length === 0) return;
  await lockColumn(db, 'closed');
  const positions = await topPositions(db, 'closed', others.length);
  for (const [index, other] of others.entries()) {
    await db
      .updateTable('leads')
      .set({
        status: 'closed',
        close_status: 'blacklist',
        closed_at: sql`now()`,
        position: positions[index] as string,
        updated_at: sql`now()`,
      })
      .where('id', '=', other.id)
      .execute();
  }
}
