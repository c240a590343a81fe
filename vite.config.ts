/**
 * Vite build of the web app. The server sends a Content-Security-Policy without 'unsafe-inline'
 * for scripts (server/http/security.ts), so the build refuses to emit an HTML page with an inline
 * script or an inline event handler: it would be blocked in the browser.
 *
 * Every text file of the build gets its brotli (`.br`) and gzip (`.gz`) forms beside it; the
 * server sends the one the browser accepts (server/web/index.ts, `preCompressed`). Brotli quality
 * 10, not 11: 1.7 % larger (527 against 518 KB for the whole build) for 1.3 s of CPU instead of
 * 3.2 s, which every `npm start` after a change pays.
 */
import { constants as zlibConstants } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

/** Inline scripts and event-handler attributes in a page, as short excerpts (none is fine). */
export function inlineScriptsIn(html: string): string[] {
  const found: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const [tag, attributes, body] = match;
    if (!/\ssrc\s*=/i.test(attributes) || body.trim() !== '') found.push(tag.slice(0, 80));
  }
  for (const match of html.matchAll(/<[a-z][^>]*\son[a-z]+\s*=[^>]*>/gi))
    found.push(match[0].slice(0, 80));
  return found;
}

function noInlineScripts(): Plugin {
  return {
    name: 'gscrm:no-inline-scripts',
    apply: 'build',
    transformIndexHtml: {
      // After Vite has added its own tags, so they are checked too.
      order: 'post',
      handler(html, context) {
        const found = inlineScriptsIn(html);
        if (found.length > 0) {
          throw new Error(
            `${context.filename}: inline scripts are blocked by the server's CSP; move them to a file: ${found.join(' | ')}`,
          );
        }
        return html;
      },
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    noInlineScripts(),
    compression({
      include: /\.(html|css|js|mjs|json|svg|txt|xml|map|woff)$/,
      threshold: 1024,
      algorithms: [
        defineAlgorithm('brotliCompress', {
          params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 10 },
        }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
    }),
  ],
  server: {
    port: 5173,
    proxy: { '/api': `http://localhost:${process.env.PORT ?? 8080}` },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    // .vite/manifest.json: the server preloads the area's chunks on its pages (server/web/index.ts).
    manifest: true,
    // Chunks load through the imports of the module that needs them, without Vite's
    // <link rel="modulepreload"> for each: for a page, appending ~20 links made a long task of
    // the first screen (each DOM insertion is recorded with its stack by a performance trace); for
    // the entry, index.html's 20 links competed with the entry script before the first paint
    // (Lighthouse /login 84 → 97, customers FCP ~830 → ~550 ms, alternated). The area's own chunks
    // keep them (the server's index.html above; a sign-in moving from a public page to the area).
    modulePreload: {
      resolveDependencies: (file, deps) => (/(^|\/)AreaApp-[^/]*\.js$/.test(file) ? deps : []),
    },
    chunkSizeWarningLimit: 1500,
  },
});
