-- The customer a notification or a mail is about (a reminder's, an appointment's, a signed
-- document's customer), set by the feature that notifies. Erasing the customer (nFADP,
-- server/customers/personal-data.ts) deletes them: their titles and texts name the customer.
alter table "notifications" add column "customer_id" integer references "customers" (id) on delete set null;
create index "notifications_customer_id_idx" on "notifications" ("customer_id") where "customer_id" is not null;
alter table "outbox" add column "customer_id" integer references "customers" (id) on delete set null;
create index "outbox_customer_id_idx" on "outbox" ("customer_id") where "customer_id" is not null;
