/**
 * What differs between the CSV import screens of customers and leads (the server's side:
 * server/import/resource.ts): the resource (its API routes /api/<resource>/import[/preview], its
 * field labels and record links), the texts that name it, and the options. The fields a column may
 * fill come from the server's check (`Preview.fields`).
 */
export type ImportResource = 'customers' | 'leads';

export interface ImportConfig {
  resource: ImportResource;
  texts: {
    title: string;
    intro: string;
    /** "Import {{count}} …" */
    run: string;
    toList: string;
    /** "{{done}} of {{total}} … imported" */
    importing: string;
    duplicatesIntro: string;
    assignedTo: string;
    assignedToHint: string;
  };
  /**
   * Every row needs a lead source (a lead's): it is chosen with the file, before the first check,
   * and marked required (a column of the file may hold it instead).
   */
  leadSourceRequired: boolean;
  /** Offer only the lead sources the user's role may see (the server refuses others). */
  visibleSourcesOnly: boolean;
  /** A likely duplicate may be merged into the record it looks like (customers). */
  merges: boolean;
}

export const CUSTOMER_IMPORT: ImportConfig = {
  resource: 'customers',
  texts: {
    title: 'app.customers.import.title',
    intro: 'app.customers.import.intro',
    run: 'app.customers.import.run',
    toList: 'app.customers.import.toList',
    importing: 'app.customers.import.phase.importing',
    duplicatesIntro: 'app.customers.import.duplicates.intro',
    assignedTo: 'app.customers.import.assignedTo',
    assignedToHint: 'app.customers.import.assignedToHint',
  },
  leadSourceRequired: false,
  visibleSourcesOnly: false,
  merges: true,
};

export const LEAD_IMPORT: ImportConfig = {
  resource: 'leads',
  texts: {
    title: 'app.customers.importLeads.title',
    intro: 'app.customers.importLeads.intro',
    run: 'app.customers.importLeads.run',
    toList: 'app.customers.importLeads.toList',
    importing: 'app.customers.importLeads.importing',
    duplicatesIntro: 'app.customers.importLeads.duplicatesIntro',
    assignedTo: 'app.customers.importLeads.assignedTo',
    assignedToHint: 'app.customers.importLeads.assignedToHint',
  },
  leadSourceRequired: true,
  visibleSourcesOnly: true,
  merges: false,
};
