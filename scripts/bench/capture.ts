/**
 * The SQL the app really sends, for the raw-`pg` baseline: a TCP proxy in front of PostgreSQL that
 * forwards every byte unchanged and reads the client's side of the wire protocol — simple queries
 * ('Q') and the extended protocol's Parse ('P', the text) and Bind ('B', the parameter values).
 * The app is started once against the proxy, each case is requested once, and the statements
 * seen between request and answer are that case's statements, in order, with their values. So the
 * baseline follows whatever SQL the list code sends today, without copying it by hand.
 */
import net from 'node:net';

export interface CapturedStatement {
  text: string;
  /** Parameter values as sent (text format), null for SQL NULL; undefined: a simple query. */
  values?: Array<string | null>;
}

export interface CaptureProxy {
  port: number;
  /** Starts a new window: statements from now on are collected. */
  begin(): void;
  /** Ends the window and answers its statements. */
  end(): CapturedStatement[];
  close(): Promise<void>;
}

const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;

/** Reads the frontend messages of one connection from its byte stream. */
class FrontendReader {
  private buffer: Buffer = Buffer.alloc(0);
  private startup = true;
  /** Statement texts by prepared-statement name ('' = the unnamed one). */
  private prepared = new Map<string, string>();

  constructor(private readonly onStatement: (statement: CapturedStatement) => void) {}

  push(chunk: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (;;) {
      if (this.startup) {
        if (this.buffer.length < 8) return;
        const length = this.buffer.readInt32BE(0);
        if (this.buffer.length < length) return;
        const code = this.buffer.readInt32BE(4);
        this.buffer = this.buffer.subarray(length);
        // After an SSL or GSS request (declined on a local server) the startup message follows.
        if (code !== SSL_REQUEST && code !== GSS_REQUEST && code !== CANCEL_REQUEST)
          this.startup = false;
        continue;
      }
      if (this.buffer.length < 5) return;
      const type = String.fromCharCode(this.buffer[0]);
      const length = this.buffer.readInt32BE(1);
      if (this.buffer.length < 1 + length) return;
      const body = this.buffer.subarray(5, 1 + length);
      this.buffer = this.buffer.subarray(1 + length);
      this.message(type, body);
    }
  }

  private message(type: string, body: Buffer): void {
    let at = 0;
    const cstring = () => {
      const end = body.indexOf(0, at);
      const text = body.toString('utf8', at, end);
      at = end + 1;
      return text;
    };
    const int16 = () => {
      const value = body.readInt16BE(at);
      at += 2;
      return value;
    };
    if (type === 'Q') {
      this.onStatement({ text: cstring() });
    } else if (type === 'P') {
      const name = cstring();
      this.prepared.set(name, cstring());
    } else if (type === 'B') {
      cstring(); // portal
      const statement = cstring();
      const formats = Array.from({ length: int16() }, int16);
      const values = Array.from({ length: int16() }, (_, index) => {
        const length = body.readInt32BE(at);
        at += 4;
        if (length < 0) return null;
        const value = body.subarray(at, at + length);
        at += length;
        const format = formats.length === 1 ? formats[0] : (formats[index] ?? 0);
        if (format !== 0) throw new Error('binary parameters are not replayed');
        return value.toString('utf8');
      });
      this.onStatement({ text: this.prepared.get(statement) ?? '', values });
    }
  }
}

/** A proxy on a free local port in front of `target` (host and port of the PostgreSQL server). */
export async function startCaptureProxy(target: {
  host: string;
  port: number;
}): Promise<CaptureProxy> {
  let window: CapturedStatement[] | undefined;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(client);
    sockets.add(upstream);
    const reader = new FrontendReader((statement) => window?.push(statement));
    client.on('data', (chunk: Buffer) => {
      try {
        reader.push(chunk);
      } catch (error) {
        console.warn(`capture: ${(error as Error).message}`);
      }
      upstream.write(chunk);
    });
    upstream.pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', close);
    upstream.on('close', close);
    client.on('error', close);
    upstream.on('error', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    begin: () => {
      window = [];
    },
    end: () => {
      const statements = window ?? [];
      window = undefined;
      return statements;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Which part of a list request a statement is: the page of rows, the total, or anything else. */
export function statementRole(text: string): 'page' | 'count' | 'other' {
  const sql = text.toLowerCase();
  if (!/\bcustomers\b/.test(sql)) return 'other';
  if (/^\s*select\s+count\s*\(|reltuples|^\s*explain\b/.test(sql)) return 'count';
  if (/\blimit\b/.test(sql)) return 'page';
  if (/\bcount\s*\(/.test(sql)) return 'count';
  return 'other';
}
