-- Documents carry the day they were signed (documents.signed_on). An advice protocol counts for
-- its contract's protocolMissing only when signed (issue 14: the 2024 ordinance asks for a
-- *signed* advice protocol on health sales). Protocols uploaded before this column existed (a
-- file is attached) count as signed on the day they were added; records without a file (paper
-- originals noted without a date) must be given their signing day, and their contracts show
-- "protocol missing" until then.
alter table "documents" add column "signed_on" date;

create index if not exists "documents_signed_on_idx" on "documents" ("signed_on", "id");

update documents set signed_on = created_at::date
  where document_type = 'advice_protocol' and document_file is not null;

update contracts set protocol_missing = (
    contract_type is distinct from 'non-closure' and product_group = 'health'
    and not exists (select 1 from documents d
      where d.contract_id = contracts.id and d.document_type = 'advice_protocol'
        and d.signed_on is not null))
  where product_group = 'health';
