-- Written by hand (customers, issue 6): substring search of the customer list (`search=` looks in
-- first and last name, organization, email, phone and city with ILIKE '%word%'; the city and zip
-- filters too) uses trigram indexes. pg_trgm is a trusted contrib extension of PostgreSQL (13+);
-- the embedded database loads it (server/db/index.ts).
create extension if not exists pg_trgm;

-- With the default random_page_cost (4, tuned for spinning disks) the planner prefers a sequential
-- scan over the six trigram bitmap scans of a search (about 170 ms instead of 16 ms on 100,000
-- customers). 1.1 is the usual value for SSDs and memory. On PostgreSQL it is set for this
-- database (the owner may; else a notice leaves it to the administrator); the embedded database
-- does not read database settings at start, so there it is set on its own default tablespace.
do $$
begin
  if version() like '%PGlite%' then
    alter tablespace pg_default set (random_page_cost = 1.1);
  else
    execute format('alter database %I set random_page_cost = 1.1', current_database());
  end if;
exception when others then
  raise notice 'random_page_cost left unchanged: %', sqlerrm;
end
$$;

create index "customers_first_name_trgm_idx" on "customers" using gin ("first_name" gin_trgm_ops);

create index "customers_last_name_trgm_idx" on "customers" using gin ("last_name" gin_trgm_ops);

create index "customers_organization_trgm_idx" on "customers" using gin ("organization" gin_trgm_ops);

create index "customers_email_trgm_idx" on "customers" using gin ("email" gin_trgm_ops);

create index "customers_phone_number_trgm_idx" on "customers" using gin ("phone_number" gin_trgm_ops);

create index "customers_city_trgm_idx" on "customers" using gin ("city" gin_trgm_ops);

create index "customers_zip_trgm_idx" on "customers" using gin ("zip" gin_trgm_ops);
