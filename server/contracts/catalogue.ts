/** The catalogue facts of src/schema/catalogue.ts, for the server's contracts feature. */
export { BROKER_MANDATE_PRODUCT_ID, type ProductGroup } from '../../src/schema/catalogue.ts';
