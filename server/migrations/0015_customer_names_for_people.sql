-- Written by hand after `npm run gen:migration` (issue 12): customers.first_name and last_name are no
-- longer required by the schema — a person needs both, a company only its organization (its contact
-- person's names are optional; server/customers/rules.ts) — so the columns may be null.
alter table "customers" alter column "first_name" drop not null;

alter table "customers" alter column "last_name" drop not null;
