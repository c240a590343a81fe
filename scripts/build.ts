/**
 * The build `npm start` runs: the web app (Vite, into `dist/`) and the server (esbuild, into
 * `.cache/server/`: `main.mjs` and the PGlite worker `pglite-worker.mjs`, with the packages
 * but a few, see LEFT_TO_NODE_MODULES), each only when something it is made of changed since its last build.
 *
 *   tsx scripts/build.ts [--force] [--web-only | --server-only]
 *
 * "Changed" is a SHA-256 of the inputs' names and contents (not of times), stored beside the
 * output in `.cache/build/<part>.json` with a hash of what the build wrote: a part is rebuilt when
 * its inputs differ, when its stamp is missing, or when its output is missing or is not the one the
 * stamp describes (deleted, or overwritten by another build). The inputs are whole folders, so a
 * new file counts: the web app `src/`, `index.html`, `public/`, `locales/`, `schemas/`, the Vite,
 * TypeScript and package files, Vite's `.env` files, and the `NODE_ENV` and `VITE_*` variables
 * the build sees; the server `server/`, `src/` (types and shared code it imports), `locales/`,
 * `schemas/`, the TypeScript and package files. This script is an input of both.
 *
 * The server bundle is what `npm start` runs with plain `node`: no TypeScript compiled at run
 * time (tsx costs about 2 s of CPU per start). `npm run dev` and the tests keep running the
 * sources through tsx. Modules of the server find files beside their source (the migrations, the
 * schemas, the locales) through `import.meta.url`; in the bundle each module's `import.meta.url`
 * is rewritten to its source file's address, relative to the bundle, so the bundle stays valid
 * wherever the repository lies.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import lockfile from 'proper-lockfile';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Where the server bundle goes (git-ignored, beside the PGlite image). */
export const SERVER_OUT = path.join(ROOT, '.cache', 'server');
export const SERVER_ENTRY = path.join(SERVER_OUT, 'main.mjs');
const WORKER_BUNDLE = path.join(SERVER_OUT, 'pglite-worker.mjs');
const WEB_OUT = path.join(ROOT, 'dist');
const STAMPS = path.join(ROOT, '.cache', 'build');

const SHARED_INPUTS = ['package.json', 'package-lock.json', 'tsconfig.json', 'scripts/build.ts'];
const WEB_INPUTS = [
  ...SHARED_INPUTS,
  'src',
  'index.html',
  'public',
  'locales',
  'schemas',
  'vite.config.ts',
  // Vite reads these for VITE_ variables (git-ignored, optional).
  '.env',
  '.env.local',
  '.env.production',
  '.env.production.local',
];
const SERVER_INPUTS = [...SHARED_INPUTS, 'server', 'src', 'locales', 'schemas'];

/** Tests live beside the code; they are never part of a build. */
const isTest = (file: string) => /\.test\.tsx?$/.test(file);

/** Every file under the given paths (relative to ROOT), sorted, tests left out. */
function listFiles(inputs: string[]): string[] {
  const files: string[] = [];
  const walk = (relative: string) => {
    const absolute = path.join(ROOT, relative);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(absolute);
    } catch {
      return; // an optional input (public/) that does not exist
    }
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(absolute)) walk(path.posix.join(relative, entry));
    } else if (stat.isFile() && !isTest(relative)) files.push(relative);
  };
  for (const input of inputs) walk(input);
  return files.sort();
}

/** A hash of the files' names and contents. */
export function hashFiles(inputs: string[], root = ROOT, extra = ''): string {
  const hash = createHash('sha256');
  hash.update(`${extra}\0`);
  for (const file of listFiles(inputs)) {
    hash.update(`${file}\0`);
    hash.update(fs.readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

interface Stamp {
  inputs: string;
  /** A hash of the output file that proves the output is this build's. */
  output: string;
}

const stampFile = (part: string) => path.join(STAMPS, `${part}.json`);

function readStamp(part: string): Stamp | undefined {
  try {
    return JSON.parse(fs.readFileSync(stampFile(part), 'utf8')) as Stamp;
  } catch {
    return undefined;
  }
}

function writeStamp(part: string, stamp: Stamp): void {
  fs.mkdirSync(STAMPS, { recursive: true });
  const temporary = `${stampFile(part)}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(stamp, null, 2)}\n`);
  fs.renameSync(temporary, stampFile(part));
}

function outputHash(files: string[]): string {
  const hash = createHash('sha256');
  for (const file of files) {
    if (!fs.existsSync(file)) return 'missing';
    hash.update(fs.readFileSync(file));
  }
  return hash.digest('hex');
}

interface Part {
  name: 'web' | 'server';
  inputs: string[];
  /** What else decides the output besides the files (the environment the build sees). */
  environment?: () => string;
  /** The files whose content identifies a build of this part. */
  outputs: string[];
  build(): Promise<void>;
}

async function buildWeb(): Promise<void> {
  const { build } = await import('vite');
  await build({ root: ROOT, logLevel: 'warn', build: { outDir: WEB_OUT, emptyOutDir: true } });
}

/**
 * Packages the server bundle leaves in node_modules (all others are bundled, see buildServer):
 * PGlite (its worker loads its WASM and data files from beside its code), @fastify/swagger-ui
 * (serves its own files from its folder) and @fastify/static (which swagger-ui loads from there
 * anyway: one copy), pg's optional native binding (not installed), and what the server imports
 * only when needed, which costs a start nothing: the S3 client (large), nodemailer, and the
 * password-strength dictionaries (CommonJS packages imported with `import()`, whose named exports
 * only Node's own loader finds).
 */
const LEFT_TO_NODE_MODULES = [
  '@electric-sql/pglite',
  '@fastify/swagger-ui',
  '@fastify/static',
  'pg-native',
  '@aws-sdk/*',
  'nodemailer',
  '@zxcvbn-ts/*',
];

/** The path from the bundle's folder to a source file, as a URL path. */
const fromBundle = (file: string) =>
  path.relative(SERVER_OUT, file).split(path.sep).join(path.posix.sep);

async function buildServer(): Promise<void> {
  const esbuild = await import('esbuild');
  fs.rmSync(SERVER_OUT, { recursive: true, force: true });
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: {
      main: 'server/main.ts',
      'pglite-worker': 'server/db/pglite-worker.ts',
    },
    outdir: SERVER_OUT,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // Modules the server imports when needed (S3 storage and its SDK) stay separate files, loaded
    // then, as from the sources; one file would import every package up front.
    splitting: true,
    chunkNames: '[name]-[hash]',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // The packages go into the bundle too, but for the few in LEFT_TO_NODE_MODULES: Node would
    // otherwise resolve, read and compile some 1,100 files of node_modules at every start (Kysely
    // alone ~280, ~0.2 s), about a third of the main thread's start. Packages written as CommonJS
    // call `require` for Node's own modules: the banner gives every output file one.
    banner: {
      js: "import { createRequire as gscrmCreateRequire } from 'node:module';\nconst require = gscrmCreateRequire(import.meta.url);",
    },
    sourcemap: 'linked',
    sourcesContent: false,
    legalComments: 'none',
    logLevel: 'warning',
    // Where the PGlite client finds the worker, relative to its own (rewritten) import.meta.url.
    define: {
      GSCRM_WORKER_BUNDLE: JSON.stringify(
        path
          .relative(path.join(ROOT, 'server', 'db'), WORKER_BUNDLE)
          .split(path.sep)
          .join(path.posix.sep),
      ),
    },
    plugins: [
      {
        name: 'gscrm:left-to-node-modules',
        setup(build) {
          build.onResolve({ filter: /^[^./]/ }, (args) => {
            if (args.path.startsWith('node:')) return { external: true };
            const parts = args.path.split('/');
            const name = args.path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
            return LEFT_TO_NODE_MODULES.some((left) =>
              left.endsWith('/*') ? name.startsWith(left.slice(0, -1)) : name === left,
            )
              ? { external: true }
              : undefined;
          });
        },
      },
      {
        name: 'gscrm:source-import-meta-url',
        setup(build) {
          build.onLoad({ filter: /\.(ts|tsx)$/ }, (args) => {
            const source = fs.readFileSync(args.path, 'utf8');
            if (!source.includes('import.meta.url')) return undefined;
            const url = `new URL(${JSON.stringify(fromBundle(args.path))}, import.meta.url).href`;
            return {
              contents: source.replaceAll('import.meta.url', url),
              loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts',
            };
          });
        },
      },
    ],
  });
}

const PARTS: Part[] = [
  {
    name: 'web',
    inputs: WEB_INPUTS,
    // NODE_ENV picks React's development or production build; VITE_ variables go into the code.
    environment: () =>
      JSON.stringify(
        Object.entries(process.env)
          .filter(([name]) => name === 'NODE_ENV' || name.startsWith('VITE_'))
          .sort(([a], [b]) => a.localeCompare(b)),
      ),
    outputs: [path.join(WEB_OUT, 'index.html')],
    build: buildWeb,
  },
  {
    name: 'server',
    inputs: SERVER_INPUTS,
    outputs: [SERVER_ENTRY, WORKER_BUNDLE],
    build: buildServer,
  },
];

/**
 * Builds what is out of date (or everything with `force`); answers what was built. One build at a
 * time per checkout (README starts two servers with `npm start &` at once): the second waits for
 * the first and then finds everything up to date.
 */
export async function buildAll(
  options: { force?: boolean; only?: Part['name'] } = {},
): Promise<{ part: string; built: boolean; ms: number }[]> {
  fs.mkdirSync(STAMPS, { recursive: true });
  const release = await lockfile.lock(STAMPS, {
    lockfilePath: path.join(STAMPS, 'building.lock'),
    // A build holding the lock refreshes it; one killed mid-way leaves it stale after 30 s.
    stale: 30_000,
    retries: { retries: 1_000, minTimeout: 100, maxTimeout: 500 },
  });
  try {
    return await buildParts(options);
  } finally {
    await release();
  }
}

async function buildParts(options: {
  force?: boolean;
  only?: Part['name'];
}): Promise<{ part: string; built: boolean; ms: number }[]> {
  const done: { part: string; built: boolean; ms: number }[] = [];
  for (const part of PARTS) {
    if (options.only && part.name !== options.only) continue;
    const started = performance.now();
    const inputs = hashFiles(part.inputs, ROOT, part.environment?.() ?? '');
    const stamp = readStamp(part.name);
    const upToDate =
      !options.force &&
      stamp?.inputs === inputs &&
      stamp.output === outputHash(part.outputs) &&
      stamp.output !== 'missing';
    if (!upToDate) {
      // A build cut short must not leave a stamp that vouches for the old output.
      fs.rmSync(stampFile(part.name), { force: true });
      await part.build();
      writeStamp(part.name, { inputs, output: outputHash(part.outputs) });
    }
    done.push({ part: part.name, built: !upToDate, ms: performance.now() - started });
  }
  return done;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const only = args.includes('--web-only')
    ? 'web'
    : args.includes('--server-only')
      ? 'server'
      : undefined;
  try {
    for (const { part, built, ms } of await buildAll({ force: args.includes('--force'), only }))
      console.log(
        built
          ? `Built the ${part} in ${(ms / 1000).toFixed(1)} s.`
          : `The ${part} build is up to date (checked in ${Math.round(ms)} ms).`,
      );
  } catch (error) {
    console.error(`Build failed: ${(error as Error).message}`);
    process.exit(1);
  }
}
