/** node-postgres's parameter conversion (untyped in @types/pg), used by ./pglite-wire.ts. */
declare module 'pg/lib/utils' {
  /** A JavaScript value as the text node-postgres sends for it (null stays null, Buffers as they are). */
  export function prepareValue(value: unknown): string | Buffer | null;
  const utils: { prepareValue: typeof prepareValue };
  export default utils;
}
