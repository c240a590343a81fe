-- Written by hand (issue 13): a NOTIFY on `gscrm_principals` whenever what a session token stands
-- for may have changed: an account updated or deleted (role, permissions, language, active, date
-- range, names), a sub-broker's account made, changed or removed, a session revoked, its expiry
-- changed or the session deleted. The embedded engine (PGlite, one process per data folder) keeps
-- recent principals in memory and forgets them all on this notification, which reaches it before
-- the committing statement's answer (server/auth/sessions.ts, server/db/pglite-client.ts).
-- Statement triggers (once per statement, whatever the rows) except for a session's update: its
-- `last_seen_at` moving forward (touched every minute) does not notify, anything else does. A
-- notification without listeners (PostgreSQL) costs next to nothing.
create or replace function gscrm_principals_changed() returns trigger
language plpgsql as $$
begin
  perform pg_notify('gscrm_principals', tg_table_name);
  return null;
end
$$;

create trigger users_principals_changed
  after update or delete on users
  for each statement execute function gscrm_principals_changed();

create trigger external_users_principals_changed
  after insert or update or delete on external_users
  for each statement execute function gscrm_principals_changed();

-- A session: any change but its `last_seen_at` moving forward (the touch every minute).
create trigger sessions_principals_changed
  after update on sessions
  for each row
  when (old.revoked_at is distinct from new.revoked_at
    or old.expires_at is distinct from new.expires_at
    or old.user_id is distinct from new.user_id
    or old.token_hash is distinct from new.token_hash
    or new.last_seen_at < old.last_seen_at)
  execute function gscrm_principals_changed();

create trigger sessions_deleted_principals_changed
  after delete on sessions
  for each statement execute function gscrm_principals_changed();
