/**
 * Encryption at rest of the offer credentials: AES-256-GCM with a key derived (HKDF-SHA-256) from
 * the server secret. The secret is the environment variable SECRET_KEY (production: set it, keep it
 * out of the database backups' reach; changing it makes stored credentials unreadable — users then
 * enter them again). Without SECRET_KEY (demo mode, tests) a random secret is generated once and
 * kept in the app_secrets table, so the demo works out of the box; that protects nothing against
 * someone holding the database, which is why production should set SECRET_KEY.
 * Ciphertexts are `v1:<iv>:<tag>:<data>` (base64) and bound to their purpose and user (AAD), so
 * a value copied to another user's row does not decrypt.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { DB } from '../db/index.ts';

const keys = new WeakMap<DB, Promise<Buffer>>();

async function serverSecret(db: DB): Promise<string> {
  const fromEnv = process.env.SECRET_KEY;
  if (fromEnv) return fromEnv;
  const read = () =>
    db
      .selectFrom('app_secrets')
      .select('value')
      .where('name', '=', 'secret_key')
      .executeTakeFirst();
  const existing = await read();
  if (existing) return String(existing.value);
  await db
    .insertInto('app_secrets')
    .values({ name: 'secret_key', value: randomBytes(32).toString('base64') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  return String((await read())!.value);
}

/** The 256-bit key for offer credentials (cached per database). */
export function offerKey(db: DB): Promise<Buffer> {
  let key = keys.get(db);
  if (!key) {
    key = serverSecret(db).then((secret) =>
      Buffer.from(hkdfSync('sha256', secret, 'gscrm', 'offer-credentials', 32)),
    );
    key.catch(() => keys.delete(db));
    keys.set(db, key);
  }
  return key;
}

export function encrypt(key: Buffer, plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context));
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return ['v1', iv.toString('base64'), tag.toString('base64'), data.toString('base64')].join(':');
}

/** Throws when the value was not encrypted with this key and context (or was changed). */
export function decrypt(key: Buffer, value: string, context: string): string {
  const [version, iv, tag, data] = value.split(':');
  if (version !== 'v1' || !iv || !tag || data === undefined)
    throw new Error('unknown ciphertext format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString(
    'utf8',
  );
}

/** The stored offer credentials of a user, decrypted — for the offers feature's server code only. */
export async function readOfferCredentials(
  db: DB,
  userId: number,
): Promise<{ username: string | null; password: string | null }> {
  const row = await db
    .selectFrom('offer_credentials')
    .select(['username_encrypted', 'password_encrypted'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return { username: null, password: null };
  const key = await offerKey(db);
  return {
    username: row.username_encrypted
      ? decrypt(key, String(row.username_encrypted), `offer-username:${userId}`)
      : null,
    password: row.password_encrypted
      ? decrypt(key, String(row.password_encrypted), `offer-password:${userId}`)
      : null,
  };
}
