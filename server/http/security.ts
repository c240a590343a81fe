/**
 * Security headers on every answer (API, web app, static files, errors and 404s), with
 * @fastify/helmet, plus `Cache-Control: no-store` on every /api answer so no browser or proxy
 * keeps customer data or a sign-in token (public answers versioned by an ETag, the interface
 * texts, may be kept and revalidated). Registered on the root before access control, so an
 * answer refused there (401, 403, 429) carries the headers too.
 *
 * The policy (docs/ARCHITECTURE.md §5):
 * - scripts only from our origin: the built web app has no inline script (vite.config.ts refuses
 *   to build one), so no nonce or hash is needed and injected markup cannot run code;
 * - styles from our origin and inline: MUI's emotion writes its rules into <style> elements at
 *   run time. A nonce would need the web app to hand it to emotion's cache, so 'unsafe-inline'
 *   stays for styles only (a style cannot run code);
 * - images also as data:/blob: (pictures fetched with the token are shown as blob: URLs) and
 *   from any https: address (an avatar may be a link to a picture elsewhere);
 * - no plugins, no <base>, forms only to us, and no page may frame ours (clickjacking);
 * - HSTS and upgrade-insecure-requests only when PUBLIC_URL is https: on plain http (the demo on
 *   localhost) they would break the app.
 */
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

export interface SecurityOptions {
  /** The address users open (PUBLIC_URL); https turns HSTS on. */
  publicUrl?: string;
}

/** HSTS lifetime: one year, the common preload minimum. */
const HSTS_SECONDS = 365 * 24 * 60 * 60;

/** The Content-Security-Policy directives (also read by tests). */
export function cspDirectives(https: boolean): Record<string, string[]> {
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', 'https:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    ...(https ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

const isApi = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');

async function security(app: FastifyInstance, options: SecurityOptions): Promise<void> {
  const publicUrl = options.publicUrl ?? process.env.PUBLIC_URL ?? '';
  const https = publicUrl.toLowerCase().startsWith('https:');
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(https) },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: https ? { maxAge: HSTS_SECONDS, includeSubDomains: false } : false,
    // nosniff, COOP/CORP same-origin, Origin-Agent-Cluster, no DNS prefetch, X-XSS-Protection 0
    // and the rest: helmet's defaults.
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (isApi(request.url)) {
      // A route may say more (`private, no-store` on downloads), never less — except a public
      // answer that holds no customer data and is versioned by its ETag (the interface texts,
      // server/i18n/translations.ts): `no-cache` lets the browser keep it and revalidate (304).
      const current = reply.getHeader('cache-control');
      const revalidatedPublic =
        current === 'no-cache' &&
        reply.hasHeader('etag') &&
        request.routeOptions.config?.access === 'public';
      if (
        !revalidatedPublic &&
        (typeof current !== 'string' || !/(^|[\s,])no-store($|[\s,])/i.test(current))
      )
        reply.header('cache-control', 'no-store');
    }
    return payload;
  });
}

// Hooks on the root, not encapsulated (what fastify-plugin does): they must reach every route.
Object.defineProperty(security, Symbol.for('skip-override'), { value: true });

export default security;
