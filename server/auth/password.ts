/**
 * Password hashing with scrypt (memory-hard, from node:crypto).
 * Stored as `scrypt$N$r$p$salt$hash` (base64) so the cost can be raised later without breaking
 * existing hashes; `needsRehash` tells when a stored hash uses older parameters.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** N=2^15, r=8: 32 MiB per hash, ≈50–100 ms on one core (OWASP's scrypt baseline is N=2^17 or 2^15/r=8/p=3). */
const COST = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize('NFC'),
      salt,
      KEY_LENGTH,
      { N, r, p, maxmem: 256 * N * r },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST.N, COST.r, COST.p);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64'), key.toString('base64')].join(
    '$',
  );
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p));
  return key.length === expected.length && timingSafeEqual(key, expected);
}

export function needsRehash(stored: string): boolean {
  const [, n, r, p] = stored.split('$');
  return Number(n) !== COST.N || Number(r) !== COST.r || Number(p) !== COST.p;
}

/** A hash of a random password, verified against when the account is unknown, so timing does not tell. */
let dummyHash: Promise<string> | undefined;
export const getDummyHash = (): Promise<string> => {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return dummyHash;
};
