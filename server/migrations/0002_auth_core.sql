-- Hand-written: tables of the auth core that are not entities (no schema, never on the API).

create table user_credentials (
  user_id integer primary key references users (id) on delete cascade,
  password_hash text not null,
  password_changed_at timestamptz not null default now()
);

create table sessions (
  id bigint generated always as identity primary key,
  token_hash text not null unique,
  user_id integer not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz,
  ip text,
  user_agent text
);
create index sessions_user_id_idx on sessions (user_id);

create table login_attempts (
  id bigint generated always as identity primary key,
  at timestamptz not null default now(),
  email text not null,
  ip text not null,
  success boolean not null
);
create index login_attempts_email_at_idx on login_attempts (email, at);
create index login_attempts_ip_at_idx on login_attempts (ip, at);

create table audit_log (
  id bigint generated always as identity primary key,
  at timestamptz not null default now(),
  event text not null,
  user_id integer,
  ip text,
  resource text,
  record_id text,
  details jsonb
);
create index audit_log_at_idx on audit_log (at);
create index audit_log_user_id_idx on audit_log (user_id);

create unique index users_email_lower_key on users (lower(email));
