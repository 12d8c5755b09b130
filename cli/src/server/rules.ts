/**
 * Who calls the embedded backend: the request's `Authorization` header resolved to a
 * {@link Principal}. The role table it is then held to is
 * `shared/rules/document-rules.ts`, shared with the in-memory backend, which decides:
 * - projects need Browse, models OpenModels, hidden models SeeHiddenModels (otherwise a hidden
 *   model is withheld, never refused by name);
 * - `users` and `admins` need ManageUsers; without it a caller reads only their own
 *   `users/{uid}` record and their own email's `admins` entry (both read at sign-in);
 * - writes of projects and models need ManageCatalog, of users and admins ManageUsers; a
 *   signed-in caller without it may write only their own `users/{uid}`, with the role that sign-in's
 *   role resolution gives ('user', or 'admin' when their email is in `admins`); nobody changes their
 *   own role.
 * The service key acts as 'admin'.
 */
import { timingSafeEqual } from 'node:crypto';
import { AppError, ErrorCode } from '@shared/errors.js';
import type { Principal } from '@shared/rules/document-rules.js';
import type { IdentityService } from './auth.js';
import type { DocumentStore } from './documents/store.js';

/**
 * Resolves the caller of a request from its `Authorization: Bearer …` header: the service key,
 * a valid ID token (role read from `users/{uid}.role`), or anonymous when there is no header.
 * @param header the header's value (null or undefined when absent)
 * @param deps the service key (compared in constant time), the identity service and the documents
 * @returns the principal the role table decides for
 * @throws AppError `unauthenticated` / `auth/user-token-expired` for a bad or expired token
 */
export async function resolvePrincipal(
  header: string | null | undefined,
  deps: { serviceKey: string; identity: IdentityService; documents: DocumentStore },
): Promise<Principal> {
  if (!header) return { kind: 'anon' };
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  if (!match) throw new AppError(ErrorCode.Unauthenticated, 'Malformed Authorization header');
  const token = match[1]!;
  const given = Buffer.from(token);
  const expected = Buffer.from(deps.serviceKey);
  if (given.length === expected.length && timingSafeEqual(given, expected)) return { kind: 'service' };
  const { uid, email } = await deps.identity.verifyIdToken(token);
  const role = deps.documents.get('users', uid)?.data.role;
  return { kind: 'user', uid, email, role: role === 'admin' || role === 'user' ? role : null };
}
