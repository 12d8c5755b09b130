import type { CatalogPort } from '../ports/catalog.js';
import type { AuthUser } from '../ports/identity.js';
import { SERVER_TIMESTAMP } from '../ports/catalog.js';
import { decideRole } from '../roles.js';
import type { Role } from '../types.js';

/**
 * Role resolution at sign-in: the user record's role if one exists; otherwise a
 * record is created with role 'admin' when the email is in the `admins` allowlist, else 'user'
 * (also when the email is missing). A service principal (CLI service key) acts as admin.
 *
 * @param catalog the catalog port, signed in as `user`
 * @param user the signed-in identity, or null when signed out
 * @returns the role, or null when signed out (signed out means no role)
 * @throws AppError from the catalog (`permission-denied`, `network`…)
 */
export async function resolveRole(catalog: CatalogPort, user: AuthUser | null): Promise<Role | null> {
  if (user === null) return null;
  if (user.service === true) return 'admin';
  const record = await catalog.get('users', user.uid);
  const email = user.email ? user.email.trim().toLowerCase() : null;
  const emailInAdmins = record === null && email !== null ? (await catalog.get('admins', email)) !== null : false;
  const decision = decideRole({ existingRole: record?.role ?? null, email, emailInAdmins });
  if (decision.create) {
    await catalog.set('users', user.uid, {
      uid: user.uid,
      email,
      role: decision.role,
      created_at: SERVER_TIMESTAMP,
      registered_at: SERVER_TIMESTAMP,
    });
  }
  return decision.role;
}
