/** The part of autocannon 8's programmatic API the benchmark uses (the package has no types). */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    timeout?: number;
    headers?: Record<string, string>;
    method?: string;
  }

  interface Result {
    errors: number;
    timeouts: number;
    non2xx: number;
    resets: number;
    duration: number;
    requests: { total: number; sent?: number };
  }

  interface Instance extends EventEmitter {
    stop(): void;
    on(
      event: 'response',
      listener: (client: unknown, statusCode: number, bytes: number, responseTime: number) => void,
    ): this;
    on(event: 'done', listener: (result: Result) => void): this;
    on(event: 'reqError', listener: (error: Error) => void): this;
  }

  function autocannon(
    options: Options,
    callback?: (error: Error | null, result: Result) => void,
  ): Instance;
  export default autocannon;
}
