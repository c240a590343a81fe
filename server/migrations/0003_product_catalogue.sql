-- Hand-written: the product catalogue (spec §3 Products). Ids are fixed on every install; other
-- records and the broker-contracts listing (product 28, broker mandate) rely on them.
-- Reference data, not demo data: production gets it too. Existing rows are never overwritten.

insert into products (id, "key", "group", sort_order) values
  (1, 'basic', 'health', 10),
  (2, 'supplementary', 'health', 20),
  (3, 'basic_supplementary', 'health', 30),
  (4, 'pillar_3a', 'life', 110),
  (5, 'pillar_3b', 'life', 120),
  (6, 'payment_plan', 'life', 130),
  (7, 'car', 'property_casualty', 210),
  (8, 'motorcycle', 'property_casualty', 220),
  (9, 'legal', 'property_casualty', 230),
  (10, 'personal_liability', 'property_casualty', 240),
  (11, 'household_liability', 'property_casualty', 250),
  (12, 'assistance_travel', 'property_casualty', 260),
  (13, 'household_contents', 'property_casualty', 270),
  (14, 'boat', 'property_casualty', 280),
  (15, 'animal', 'property_casualty', 290),
  (16, 'valuable_items', 'property_casualty', 300),
  (17, 'building', 'property_casualty', 310),
  (18, 'house_construction', 'property_casualty', 320),
  (19, 'earthquake', 'property_casualty', 330),
  (20, 'pnc_mix', 'property_casualty', 340),
  (21, 'security_deposit_guarantee', 'property_casualty', 350),
  (22, 'vested_benefits_account', 'finance', 510),
  (23, 'loan', 'finance', 520),
  (24, 'mortgage', 'finance', 530),
  (25, 'bank_saving', 'finance', 540),
  (26, 'kmu', 'other', 410),
  (27, 'other', 'other', 420),
  (28, 'broker_mandate', 'other', 430),
  (29, 'retirement_plan', 'other', 440)
on conflict (id) do nothing;

insert into sub_products (id, product_id, name_de, name_fr, name_it, name_en) values
  (1, 1, 'Standardmodell', 'Modèle standard', 'Modello standard', 'Standard model'),
  (2, 1, 'Hausarztmodell', 'Modèle médecin de famille', 'Modello medico di famiglia', 'Family doctor model'),
  (3, 1, 'HMO-Modell', 'Modèle HMO', 'Modello HMO', 'HMO model'),
  (4, 1, 'Telmed-Modell', 'Modèle Telmed', 'Modello Telmed', 'Telemedicine model'),
  (5, 2, 'Spitalzusatzversicherung', 'Assurance complémentaire d''hospitalisation', 'Assicurazione complementare ospedaliera', 'Hospital supplementary insurance'),
  (6, 2, 'Ambulante Zusatzversicherung', 'Assurance complémentaire ambulatoire', 'Assicurazione complementare ambulatoriale', 'Outpatient supplementary insurance'),
  (7, 2, 'Zahnversicherung', 'Assurance dentaire', 'Assicurazione dentaria', 'Dental insurance'),
  (8, 2, 'Komplementärmedizin', 'Médecine complémentaire', 'Medicina complementare', 'Complementary medicine'),
  (9, 7, 'Haftpflicht', 'Responsabilité civile', 'Responsabilità civile', 'Third-party liability'),
  (10, 7, 'Teilkasko', 'Casco partielle', 'Casco parziale', 'Partial cover'),
  (11, 7, 'Vollkasko', 'Casco complète', 'Casco totale', 'Comprehensive cover'),
  (12, 4, 'Säule 3a Bank', 'Pilier 3a bancaire', 'Pilastro 3a bancario', 'Pillar 3a bank account'),
  (13, 4, 'Säule 3a Versicherung', 'Pilier 3a assurance', 'Pilastro 3a assicurativo', 'Pillar 3a insurance')
on conflict (id) do nothing;

insert into sub_product_variants (id, sub_product_id, name_de, name_fr, name_it, name_en) values
  (1, 5, 'Allgemeine Abteilung ganze Schweiz', 'Division commune toute la Suisse', 'Reparto comune tutta la Svizzera', 'General ward, all of Switzerland'),
  (2, 5, 'Halbprivat', 'Demi-privée', 'Semiprivato', 'Semi-private'),
  (3, 5, 'Privat', 'Privée', 'Privato', 'Private'),
  (4, 5, 'Flex', 'Flex', 'Flex', 'Flex'),
  (5, 1, 'Franchise CHF 300', 'Franchise CHF 300', 'Franchigia CHF 300', 'Deductible CHF 300'),
  (6, 1, 'Franchise CHF 1000', 'Franchise CHF 1000', 'Franchigia CHF 1000', 'Deductible CHF 1000'),
  (7, 1, 'Franchise CHF 2500', 'Franchise CHF 2500', 'Franchigia CHF 2500', 'Deductible CHF 2500')
on conflict (id) do nothing;

select setval(pg_get_serial_sequence('products', 'id'), greatest((select max(id) from products), 1000));
select setval(pg_get_serial_sequence('sub_products', 'id'), greatest((select max(id) from sub_products), 1000));
select setval(pg_get_serial_sequence('sub_product_variants', 'id'), greatest((select max(id) from sub_product_variants), 1000));
