-- Appointments carry their customer's names (appointments.client_name, in their search document:
-- migration 0024), kept by the database the same way as contracts.customer_name (migration 0023).
create or replace function gscrm_appointment_client_name() returns trigger
  language plpgsql as $$
begin
  if tg_op = 'INSERT' or new.client_id is distinct from old.client_id
     or new.client_name is distinct from old.client_name then
    select gscrm_customer_search_name(c) into new.client_name
      from customers c where c.id = new.client_id;
  end if;
  return new;
end $$;

create trigger appointments_client_name
  before insert or update on appointments
  for each row execute function gscrm_appointment_client_name();

create or replace function gscrm_customer_name_to_appointments() returns trigger
  language plpgsql as $$
begin
  if gscrm_customer_search_name(new) is distinct from gscrm_customer_search_name(old) then
    update appointments set client_name = gscrm_customer_search_name(new)
      where client_id = new.id;
  end if;
  return null;
end $$;

create trigger customers_name_to_appointments
  after update of organization, first_name, last_name on customers
  for each row execute function gscrm_customer_name_to_appointments();

-- One renewal or termination reminder per contract, category and deadline: the daily job inserts
-- with "on conflict do nothing", so two servers or a rerun never make a second one.
create unique index reminders_contract_deadline_key on reminders (contract_id, category, deadline)
  where contract_id is not null and deadline is not null;

-- What the notification passes scan: open reminders not yet notified, by due date; appointments
-- still waiting for feedback, by end.
create index reminders_due_unnotified_idx on reminders (due_date)
  where status = 'open' and notified_at is null;
create index appointments_feedback_missing_idx on appointments (date_end)
  where feedback_id is null and status in (1, 3);
