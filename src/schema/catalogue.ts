/**
 * Product catalogue facts both sides rely on (ids are fixed across installs:
 * server/migrations/0003_product_catalogue.sql).
 */
export type ProductGroup = 'health' | 'life' | 'property_casualty' | 'finance' | 'other';

/** The broker-mandate product: a closure of it is a broker contract (spec §9). */
export const BROKER_MANDATE_PRODUCT_ID = 28;
