-- The ledger's totals by owner, month, status and kind (issue 17: my commissions' and the
-- commissions page's totals read these instead of every line; measured on PGlite with 600,000
-- lines of one user: 1.7 s a request before).
--
-- Insert-only: a statement-level trigger on commission_lines adds, per statement, one row per
-- group it changed (+1 and the amount for a line that came into the group, -1 and minus the
-- amount for one that left it). Nobody updates a row here, so writers never wait on one another;
-- `compactCommissionSums` (server/commissions/sums.ts) folds the rows of a group into one after a
-- recompute and nightly. A total is the sum of its group's rows. A truncate of the ledger empties
-- it too.
create table if not exists "commission_sums" (
  "user_id" integer not null default 0,
  "sub_broker_id" integer not null default 0,
  "period" text not null,
  "status" text not null,
  "kind" text not null,
  "line_count" bigint not null,
  "amount" bigint not null,
  "stars" double precision not null
);

create index if not exists "commission_sums_user_period_idx" on "commission_sums" ("user_id", "period");

create or replace function gscrm_commission_sums() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into commission_sums (user_id, sub_broker_id, period, status, kind, line_count, amount, stars)
    select coalesce(user_id, 0), coalesce(sub_broker_id, 0), period, status, kind,
      count(*), sum(amount), coalesce(sum(stars), 0)
    from gscrm_new_lines group by 1, 2, 3, 4, 5;
  elsif tg_op = 'DELETE' then
    insert into commission_sums (user_id, sub_broker_id, period, status, kind, line_count, amount, stars)
    select coalesce(user_id, 0), coalesce(sub_broker_id, 0), period, status, kind,
      -count(*), -sum(amount), -coalesce(sum(stars), 0)
    from gscrm_old_lines group by 1, 2, 3, 4, 5;
  else
    insert into commission_sums (user_id, sub_broker_id, period, status, kind, line_count, amount, stars)
    select owner, broker, period, status, kind, sum(n), sum(amount), sum(stars)
    from (
      select coalesce(user_id, 0) as owner, coalesce(sub_broker_id, 0) as broker, period, status,
        kind, 1 as n, amount::bigint as amount, coalesce(stars, 0) as stars
      from gscrm_new_lines
      union all
      select coalesce(user_id, 0), coalesce(sub_broker_id, 0), period, status, kind, -1,
        -amount::bigint, -coalesce(stars, 0)
      from gscrm_old_lines
    ) as moved
    group by 1, 2, 3, 4, 5
    having sum(n) <> 0 or sum(amount) <> 0 or sum(stars) <> 0;
  end if;
  return null;
end
$$;

create or replace function gscrm_commission_sums_truncate() returns trigger language plpgsql as $$
begin
  truncate commission_sums;
  return null;
end
$$;

drop trigger if exists "commission_lines_sums_insert" on "commission_lines";
drop trigger if exists "commission_lines_sums_update" on "commission_lines";
drop trigger if exists "commission_lines_sums_delete" on "commission_lines";
drop trigger if exists "commission_lines_sums_truncate" on "commission_lines";

create trigger "commission_lines_sums_insert" after insert on "commission_lines"
  referencing new table as gscrm_new_lines
  for each statement execute function gscrm_commission_sums();
create trigger "commission_lines_sums_update" after update on "commission_lines"
  referencing old table as gscrm_old_lines new table as gscrm_new_lines
  for each statement execute function gscrm_commission_sums();
create trigger "commission_lines_sums_delete" after delete on "commission_lines"
  referencing old table as gscrm_old_lines
  for each statement execute function gscrm_commission_sums();
create trigger "commission_lines_sums_truncate" after truncate on "commission_lines"
  for each statement execute function gscrm_commission_sums_truncate();

-- The lines already written.
truncate commission_sums;
insert into commission_sums (user_id, sub_broker_id, period, status, kind, line_count, amount, stars)
select coalesce(user_id, 0), coalesce(sub_broker_id, 0), period, status, kind,
  count(*), sum(amount), coalesce(sum(stars), 0)
from commission_lines group by 1, 2, 3, 4, 5;
