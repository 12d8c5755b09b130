/**
 * The accounts of User Management ('Set as Admin' needs a UID, and this list is where an admin
 * finds one): the live `users` records with the `admins` allowlist, read through the catalog
 * port (admins only: firestore.rules, and the access table in tests/support/access-table.ts).
 */
import { useMemo } from 'react';
import type { AdminEntry, UserRecord } from '@shared/types.js';
import { useBackend } from '../../../lib/backend-context.js';
import { useSubscription, type Resource } from '../../../lib/resource.js';

/** One account of the list: its record, and whether its email is in the `admins` allowlist. */
export interface ListedUser {
  uid: string;
  email: string | null;
  role: string;
  /** The record's role is admin. */
  admin: boolean;
  /** The email is in the `admins` allowlist (it gets the admin role at its first sign-in). */
  allowlisted: boolean;
}

/** The live accounts, by email (then UID); loading until both collections have answered. */
export function useUserList(): Resource<ListedUser[]> {
  const { catalog } = useBackend();
  const users = useSubscription<UserRecord[]>('users', (onNext, onError) => catalog.subscribe('users', undefined, onNext, onError));
  const admins = useSubscription<AdminEntry[]>('admins', (onNext, onError) => catalog.subscribe('admins', undefined, onNext, onError));
  return useMemo((): Resource<ListedUser[]> => {
    if (users.status !== 'success') return users as Resource<ListedUser[]>;
    // the allowlist only adds a mark: a failure to read it leaves the list as it is
    const allow = new Set(admins.status === 'success' ? admins.data.map((a) => (a.email ?? a.id).toLowerCase()) : []);
    const list = users.data.map((u) => {
      const email = typeof u.email === 'string' && u.email !== '' ? u.email : null;
      return {
        uid: u.id,
        email,
        role: typeof u.role === 'string' ? u.role : 'none',
        admin: u.role === 'admin',
        allowlisted: email !== null && allow.has(email.toLowerCase()),
      };
    });
    list.sort((a, b) => (a.email ?? '\uffff').localeCompare(b.email ?? '\uffff') || a.uid.localeCompare(b.uid));
    return { status: 'success', data: list, error: undefined };
  }, [users, admins]);
}
