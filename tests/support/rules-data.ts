// The backend-neutral tables (tests/support/access-table.ts, tests/support/findings-field-table.ts) write
// the server-time sentinel `{$serverTimestamp: true}` where a client asks for the server's
// clock; the Firestore web SDK that the rules tests run asks for it with `serverTimestamp()`.
import firebase from 'firebase/compat/app';
import 'firebase/compat/firestore';
import { isServerTimestamp } from '@shared/ports/catalog.js';

/**
 * A table's document data as the compat web SDK writes it: each top-level server-time sentinel
 * becomes `FieldValue.serverTimestamp()` (which firestore.rules sees as `request.time`).
 * @param data the table's data (plain JSON values and sentinels)
 * @returns a new object; other values as they are
 */
export function sdkData(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(data).map(([key, value]) => [key, isServerTimestamp(value) ? firebase.firestore.FieldValue.serverTimestamp() : value]),
  );
}
