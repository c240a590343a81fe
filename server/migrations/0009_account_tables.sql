-- Hand-written: tables of the account flows that are not entities (no schema, no generic API).

-- Every mail goes through here (server/mail): in demo mode and tests it stays ('stored') and admins
-- read it in the app; with SMTP configured it is a delivery queue ('pending' → 'sent'/'failed'),
-- and the body is dropped once sent.
create table outbox (
  id bigint generated always as identity primary key,
  created_at timestamptz not null default now(),
  kind text not null,
  to_address text not null,
  subject text not null,
  body text,
  user_id integer references users (id) on delete set null,
  status text not null default 'stored',
  attempts integer not null default 0,
  sent_at timestamptz,
  error text
);
create index outbox_created_at_idx on outbox (created_at);
create index outbox_status_idx on outbox (status);
create index outbox_to_address_idx on outbox (lower(to_address));

-- Single-use password tokens (reset and invitation), stored as SHA-256 of the token.
create table password_tokens (
  id bigint generated always as identity primary key,
  token_hash text not null unique,
  user_id integer not null references users (id) on delete cascade,
  purpose text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index password_tokens_user_id_idx on password_tokens (user_id);

-- Settings page (spec §3 User preferences): one JSON document per user, validated by the server
-- (src/auth/preferences.ts); the language lives in users.language.
create table user_preferences (
  user_id integer primary key references users (id) on delete cascade,
  preferences jsonb not null default '{}'::jsonb,
  updated_at timestamptz not null default now()
);

-- Offer credentials (spec §3): AES-256-GCM ciphertexts, never returned in clear.
create table offer_credentials (
  user_id integer primary key references users (id) on delete cascade,
  username_encrypted text,
  password_encrypted text,
  updated_at timestamptz not null default now()
);

-- Server secrets generated once when no SECRET_KEY is configured (demo mode): see server/account/secrets.ts.
create table app_secrets (
  name text primary key,
  value text not null,
  created_at timestamptz not null default now()
);
