-- Contracts carry their customer's names (contracts.customer_name, in the contracts' search
-- document: migration 0022), so that search= finds a contract by its customer with the contracts'
-- own trigram index instead of searching the customers on every request. The database keeps the
-- copy, whatever writes: a contract takes the names when it is created or moved to another
-- customer (a merge moves contracts with plain SQL), and a customer's new names, a
-- pseudonymisation included, reach its contracts in the same transaction.
create or replace function gscrm_customer_search_name(c customers) returns text
  language sql immutable parallel safe
  as $$ select nullif(concat_ws(' ', c.organization, c.first_name, c.last_name), '') $$;

create or replace function gscrm_contract_customer_name() returns trigger
  language plpgsql as $$
begin
  if tg_op = 'INSERT' or new.customer_id is distinct from old.customer_id
     or new.customer_name is distinct from old.customer_name then
    select gscrm_customer_search_name(c) into new.customer_name
      from customers c where c.id = new.customer_id;
  end if;
  return new;
end $$;

create trigger contracts_customer_name
  before insert or update on contracts
  for each row execute function gscrm_contract_customer_name();

create or replace function gscrm_customer_name_to_contracts() returns trigger
  language plpgsql as $$
begin
  if gscrm_customer_search_name(new) is distinct from gscrm_customer_search_name(old) then
    update contracts set customer_name = gscrm_customer_search_name(new)
      where customer_id = new.id;
  end if;
  return null;
end $$;

create trigger customers_name_to_contracts
  after update of organization, first_name, last_name on customers
  for each row execute function gscrm_customer_name_to_contracts();

update contracts ct set customer_name = gscrm_customer_search_name(c)
  from customers c where c.id = ct.customer_id;
