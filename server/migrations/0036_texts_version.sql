-- Hand-written (issue 16, start-up speed): a counter that every change of the texts moves, so an
-- app server can keep each language's answer of GET /api/localizations/texts/{language} and know
-- with one tiny read whether it is still current — whichever server changed the texts.
create table texts_version (
  id integer primary key default 1 check (id = 1),
  version bigint not null default 0
);
insert into texts_version (id, version) values (1, 0);

create function gscrm_texts_changed() returns trigger language plpgsql as $$
begin
  update texts_version set version = version + 1 where id = 1;
  return null;
end
$$;

create trigger translations_texts_version after insert or update or delete or truncate on translations
  for each statement execute function gscrm_texts_changed();
create trigger translation_keys_texts_version after insert or update or delete or truncate on translation_keys
  for each statement execute function gscrm_texts_changed();
create trigger languages_texts_version after insert or update or delete or truncate on languages
  for each statement execute function gscrm_texts_changed();
