/**
 * Queries to PGlite as PostgreSQL's wire protocol, built and read on the main thread.
 *
 * PGlite's own `query()` describes the statement first (a second pass through PostgreSQL), then
 * turns every output message into JavaScript objects in its thread, and the rows then cross to the
 * main thread by structured clone. Measured on a list page at 100,000 customers, that JavaScript
 * was over half of the worker thread's time, and the worker thread is the embedded engine's
 * bottleneck (PostgreSQL runs there, one statement at a time). Here the worker only runs the bytes
 * through PostgreSQL (`execProtocolRaw`, one pass) and hands the answer over as a transferred
 * buffer; the main thread, which has time to spare, reads it with the parser node-postgres uses,
 * and values are turned into JavaScript by the same type parsers as on PostgreSQL
 * (./type-parsers.ts), so both engines answer alike. Parameters are sent as node-postgres sends
 * them (`prepareValue`: text, types left to the server).
 *
 * Notifications (NOTIFY committed by the statement) arrive in the same answer, before its end:
 * they are handed to `onNotification` before the query's promise settles, which the principal
 * cache relies on (server/auth/sessions.ts).
 */
import pg from 'pg';
import { type DatabaseError, serialize } from 'pg-protocol';
import type {
  BackendMessage,
  CommandCompleteMessage,
  DataRowMessage,
  NotificationResponseMessage,
  RowDescriptionMessage,
} from 'pg-protocol/dist/messages';
import { Parser } from 'pg-protocol/dist/parser';
import utils from 'pg/lib/utils';
import type { QueryResult } from './pglite-protocol.ts';
import { TYPE_PARSERS } from './type-parsers.ts';

type TypeParser = (value: string) => unknown;

const parsers = new Map<number, TypeParser>();
/** The text parser of a type: ours (./type-parsers.ts) first, else node-postgres's. */
function parserOf(oid: number): TypeParser {
  let parser = parsers.get(oid);
  if (!parser) {
    parser = (TYPE_PARSERS[oid] ?? pg.types.getTypeParser(oid, 'text')) as TypeParser;
    parsers.set(oid, parser);
  }
  return parser;
}

/** One statement with its parameters, as the messages node-postgres sends (unnamed, text). */
export function queryMessage(sql: string, params: readonly unknown[]): Uint8Array {
  const parts = [
    serialize.parse({ text: sql, types: [] }),
    serialize.bind({ values: [...params], valueMapper: (value) => utils.prepareValue(value) }),
    serialize.describe({ type: 'P' }),
    serialize.execute({}),
    serialize.sync(),
  ];
  // Its own buffer, exactly this long (a slice of Node's pool would cross with the whole pool).
  return new Uint8Array(Buffer.concat(parts));
}

/** Rows affected, from a command's tag (`INSERT 0 3`, `UPDATE 2`, `DELETE 1`, `MERGE 4`). */
function affectedRowsOf(tag: string): number | undefined {
  const [command, ...numbers] = tag.split(' ');
  if (!['INSERT', 'UPDATE', 'DELETE', 'MERGE', 'COPY'].includes(command)) return undefined;
  const count = Number(numbers.at(-1));
  return Number.isFinite(count) ? count : undefined;
}

/**
 * The rows (and rows affected) of one statement's answer (`queryMessage` run through PGlite).
 * Throws PostgreSQL's error, with its fields (code, constraint, detail …), as node-postgres does.
 */
export function readAnswer(
  answer: Uint8Array,
  onNotification: (channel: string, payload: string) => void,
): QueryResult {
  const rows: Record<string, unknown>[] = [];
  let fields: { name: string; parse: TypeParser }[] = [];
  let affectedRows: number | undefined;
  let error: DatabaseError | undefined;
  const buffer = Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength);
  new Parser().parse(buffer, (message: BackendMessage) => {
    switch (message.name) {
      case 'rowDescription':
        fields = (message as RowDescriptionMessage).fields.map((field) => ({
          name: field.name,
          parse: parserOf(field.dataTypeID),
        }));
        break;
      case 'dataRow': {
        const values = (message as DataRowMessage).fields;
        const row: Record<string, unknown> = {};
        for (let index = 0; index < fields.length; index++) {
          const value = values[index];
          row[fields[index].name] = value === null ? null : fields[index].parse(value);
        }
        rows.push(row);
        break;
      }
      case 'commandComplete':
        affectedRows = affectedRowsOf((message as CommandCompleteMessage).text);
        break;
      case 'notification': {
        const { channel, payload } = message as NotificationResponseMessage;
        onNotification(channel, payload);
        break;
      }
      case 'error':
        error ??= message as DatabaseError;
        break;
      default:
        break;
    }
  });
  if (error) throw error;
  return { rows, affectedRows };
}
