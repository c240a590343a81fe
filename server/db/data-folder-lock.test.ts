/**
 * The data-folder lock (issue 10): a lock file naming a live but unrelated process (a reused pid)
 * does not block a start; a live second GS CRM process on the folder is refused with the clear
 * "in use" message; after that process is killed with `kill -9` the folder is taken over at once.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataFolderInUseError, lockDataFolder, openPglite } from './index.ts';

const DB_MODULE = fileURLToPath(new URL('./index.ts', import.meta.url));

let folder: string;
const children: ChildProcess[] = [];
beforeEach(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'gscrm-lock-'));
});
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  fs.rmSync(folder, { recursive: true, force: true });
});

/** A process that lives until killed, unrelated to GS CRM. */
function unrelated(): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
    stdio: 'ignore',
  });
  children.push(child);
  return child;
}

/** Another GS CRM process holding the folder's lock; resolves once it holds it. */
async function holder(dataDir: string): Promise<ChildProcess> {
  const script = `
    const { lockDataFolder } = await import(${JSON.stringify(DB_MODULE)});
    await lockDataFolder(${JSON.stringify(dataDir)});
    process.stdout.write('locked\\n');
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no lock after 20 s: ${errors}`)), 20_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('locked')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the holder exited (${code}): ${errors}`));
    });
  });
  return child;
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

describe('the data-folder lock', () => {
  it('takes over a lock file that names a live but unrelated process (pid reuse)', async () => {
    const other = unrelated();
    const lockFile = path.join(folder, 'gscrm.lock');
    for (const content of [
      String(other.pid), // the format of earlier versions
      JSON.stringify({ pid: other.pid, host: os.hostname(), since: new Date().toISOString() }),
    ]) {
      fs.writeFileSync(lockFile, content);
      const unlock = await lockDataFolder(folder);
      expect(JSON.parse(fs.readFileSync(lockFile, 'utf8'))).toMatchObject({ pid: process.pid });
      await unlock();
      expect(fs.existsSync(lockFile), 'released: the note is gone').toBe(false);
    }
  });

  it('refuses a live second GS CRM process, naming it; after kill -9 takes the folder over at once', async () => {
    const child = await holder(folder);
    const refused = lockDataFolder(folder);
    await expect(refused).rejects.toBeInstanceOf(DataFolderInUseError);
    await expect(refused).rejects.toThrow(
      `The data folder ${fs.realpathSync(folder)} is in use by another GS CRM process (pid ${child.pid}`,
    );
    // The same through another path to the folder, and through openPglite (nothing opened).
    const link = `${folder}-link`;
    fs.symlinkSync(folder, link);
    try {
      await expect(openPglite(link)).rejects.toThrow(/is in use by another GS CRM process/);
    } finally {
      fs.rmSync(link, { force: true });
    }
    expect(fs.existsSync(path.join(folder, 'pgdata')), 'PGlite was not opened').toBe(false);

    child.kill('SIGKILL');
    await exited(child);
    const started = Date.now();
    const unlock = await lockDataFolder(folder);
    expect(Date.now() - started, 'no wait for a stale lock to age').toBeLessThan(2000);
    await unlock();
  }, 30_000);

  it('refuses a second opening within the same process, and allows it once released', async () => {
    const unlock = await lockDataFolder(folder);
    await expect(lockDataFolder(folder)).rejects.toBeInstanceOf(DataFolderInUseError);
    await unlock();
    const again = await lockDataFolder(folder);
    await again();
  });
});
