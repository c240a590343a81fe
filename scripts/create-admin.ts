/**
 * Creates the first admin of a production install (which seeds no demo data):
 *   DATABASE_URL=postgres://… npm run create-admin -- --email a@b.ch --first-name A --last-name B
 * The password is read from ADMIN_PASSWORD or asked for on the terminal; it must pass the app's
 * password rule and strength check (not common, not made of the admin's name or e-mail).
 */
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { hashPassword } from '../server/auth/password.ts';
import { checkedPasswordFieldErrors } from '../src/schema/passwordRule.ts';
import { readConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/index.ts';
import { migrate } from '../server/db/migrate.ts';

const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    'first-name': { type: 'string', default: 'Admin' },
    'last-name': { type: 'string', default: 'GS CRM' },
  },
});
if (!values.email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(values.email)) {
  console.error(
    'Usage: npm run create-admin -- --email admin@example.ch [--first-name A] [--last-name B]',
  );
  process.exit(2);
}
let password = process.env.ADMIN_PASSWORD;
if (!password) {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  password = await rl.question('Password for the new admin: ');
  rl.close();
}
const problems = await checkedPasswordFieldErrors(
  password,
  undefined,
  { firstName: values['first-name'], lastName: values['last-name'], email: values.email },
  { password: 'password', confirm: 'confirm' },
);
if (problems.password) {
  // The same rule and strength check as every flow of the app (src/schema/passwordRule.ts).
  console.error(`The password ${problems.password.join('; ')}.`);
  process.exit(2);
}
const config = readConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await migrate(database);
  const user = await database.db
    .insertInto('users')
    .values({
      email: values.email.toLowerCase(),
      first_name: values['first-name'],
      last_name: values['last-name'],
      role: 'ADMIN',
      is_active: true,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await database.db
    .insertInto('user_credentials')
    .values({ user_id: user.id, password_hash: await hashPassword(password) })
    .execute();
  console.log(`Admin ${values.email} created (id ${user.id}).`);
} finally {
  await database.close();
}
