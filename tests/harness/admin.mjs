// Administrators for the tests. Nobody can sign up as an admin, so the role is set in the database
// (as an operator would), then the admin signs in like anyone else.
import pg from 'pg';
import { createVerifiedUser, signIn } from './accounts.mjs';

/** Makes the user with this e-mail an administrator. */
export async function makeAdmin(stack, email) {
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query('UPDATE users SET is_admin = true WHERE lower(email) = lower($1) RETURNING id', [
      email,
    ]);
    if (rows.length !== 1) throw new Error(`no user ${email} to make an admin`);
    return rows[0].id;
  } finally {
    await db.end();
  }
}

/** A new verified administrator: { c (signed-in client), user, id }. */
export async function createAdmin(stack, overrides = {}) {
  const user = await createVerifiedUser(stack, { firstName: 'Root', lastName: 'Admin', ...overrides });
  const id = await makeAdmin(stack, user.email);
  return { c: await signIn(stack, user), user, id };
}
