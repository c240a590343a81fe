-- Written by hand (search, issue 12): the generic list search compares what people type with
-- what is stored, whatever the spelling (server/crud/search.ts).

-- 1. Text folded for comparison: accents and umlauts off Latin letters, ß → ss, æ/œ → ae/oe, lower
-- case ('Müller' → 'muller', 'Zürich' → 'zurich'). The browser and the server fold the query the
-- same way (src/schema/search.ts, `foldSearchText`; a test compares both on every letter mapped
-- here). Immutable, so expression indexes can use it.
create or replace function gscrm_fold(value text) returns text
language sql immutable strict parallel safe
as $$
  select lower(translate(
    replace(replace(replace(replace(replace(replace(value, 'ß', 'ss'), 'ẞ', 'ss'), 'æ', 'ae'), 'Æ', 'ae'), 'œ', 'oe'), 'Œ', 'oe'),
    'àáâãäåāăąÀÁÂÃÄÅĀĂĄçćĉċčÇĆĈĊČďđðĎĐÐèéêëēĕėęěÈÉÊËĒĔĖĘĚĝğġģĜĞĠĢĥħĤĦìíîïĩīĭįıÌÍÎÏĨĪĬĮİĵĴķĶĺļľŀłĹĻĽĿŁñńņňÑŃŅŇòóôõöøōŏőÒÓÔÕÖØŌŎŐŕŗřŔŖŘśŝşšșſŚŜŞŠȘţťŧțŢŤŦȚùúûüũūŭůűųÙÚÛÜŨŪŬŮŰŲŵŴýÿŷÝŸŶźżžŹŻŽ',
    'aaaaaaaaaaaaaaaaaaccccccccccddddddeeeeeeeeeeeeeeeeeegggggggghhhhiiiiiiiiiiiiiiiiiijjkkllllllllllnnnnnnnnoooooooooooooooooorrrrrrsssssssssssttttttttuuuuuuuuuuuuuuuuuuuuwwyyyyyyzzzzzz'
  ))
$$;

-- 2. The customers' search and filters compare folded text: trigram indexes on the folded values
-- replace those on the raw text of migration 0011 (which nothing compares any more). The phone
-- number keeps its index on the stored value (E.164, compared as it is).
drop index if exists "customers_first_name_trgm_idx";
drop index if exists "customers_last_name_trgm_idx";
drop index if exists "customers_organization_trgm_idx";
drop index if exists "customers_email_trgm_idx";
drop index if exists "customers_city_trgm_idx";
drop index if exists "customers_zip_trgm_idx";

create index "customers_first_name_fold_trgm_idx" on "customers" using gin (gscrm_fold("first_name") gin_trgm_ops);

create index "customers_last_name_fold_trgm_idx" on "customers" using gin (gscrm_fold("last_name") gin_trgm_ops);

create index "customers_organization_fold_trgm_idx" on "customers" using gin (gscrm_fold("organization") gin_trgm_ops);

create index "customers_email_fold_trgm_idx" on "customers" using gin (gscrm_fold("email") gin_trgm_ops);

create index "customers_city_fold_trgm_idx" on "customers" using gin (gscrm_fold("city") gin_trgm_ops);

create index "customers_zip_fold_trgm_idx" on "customers" using gin (gscrm_fold("zip") gin_trgm_ops);

-- 3. Phone numbers stored in one canonical form, E.164 (src/schema/phone.ts; the server now
-- rewrites every number it accepts). The numbers already stored passed the former patterns
-- (international with + or 00, or Swiss local with a leading 0, with spaces and separators), so
-- plain text rules give their E.164 form: separators out, 00 → +, a leading 0 → +41, a Swiss or
-- Liechtenstein trunk 0 after the country code out (+41 (0)79 …). A value that still is not E.164
-- after that is left as it was, for a person to correct. Done in SQL because the migrations are
-- SQL, applied once per database in the start-up's transaction; the changes are recorded in the
-- history as the migration's.
create or replace function pg_temp.gscrm_e164(value text) returns text
language sql immutable strict
as $$
  select case when candidate ~ '^\+[1-9][0-9]{5,14}$' then candidate else value end
  from (
    select regexp_replace(
      regexp_replace(
        regexp_replace(regexp_replace(value, '[[:space:]()./-]', '', 'g'), '^00', '+'),
        '^0', '+41'),
      '^\+(41|423)0', '+\1') as candidate
  ) as normalised
$$;

select set_config('gscrm.actor', 'system:migration 0014 (phone numbers to E.164)', true);

update "customers" set "phone_number" = pg_temp.gscrm_e164("phone_number")
where "phone_number" is distinct from pg_temp.gscrm_e164("phone_number");

update "users" set "phone" = pg_temp.gscrm_e164("phone")
where "phone" is distinct from pg_temp.gscrm_e164("phone");

update "sub_brokers" set "phone" = pg_temp.gscrm_e164("phone")
where "phone" is distinct from pg_temp.gscrm_e164("phone");

update "sub_brokers" set "contact_phone" = pg_temp.gscrm_e164("contact_phone")
where "contact_phone" is distinct from pg_temp.gscrm_e164("contact_phone");

update "external_users" set "phone" = pg_temp.gscrm_e164("phone")
where "phone" is distinct from pg_temp.gscrm_e164("phone");
