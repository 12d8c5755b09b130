/**
 * What every part of the backend contract shares: the setup an adapter's test file provides
 * ({@link ContractSetup}), the parts a run may skip ({@link ContractPart}), the context each part
 * receives ({@link ContractContext}) and the small helpers of the assertions.
 */
import { expect } from 'vitest';
import { AppError } from '@shared/errors.js';
import type { ErrorCode } from '@shared/errors.js';
import type { Backend } from '@shared/ports/index.js';

/** What an adapter's test file provides: four clients and the means to clean up. */
export interface ContractSetup {
  /** Signed in as an account whose `users/{uid}` record has role 'admin'. */
  admin: Backend;
  /** Signed in as an account whose record has role 'user'. */
  user: Backend;
  /** Signed out. The suite signs it in temporarily for registration tests and signs it out again. */
  anon: Backend;
  /** The service principal (service key / firebase-admin). */
  service: Backend;
  /** Disables an account (to test `auth/user-disabled`); absent when the backend cannot. */
  disableAccount?(email: string): Promise<void>;
  /** Closes the clients and stops what the setup started. */
  teardown(): Promise<void>;
}

/** Parts of the contract an adapter's test run may skip when a service cannot run here. */
export type ContractPart =
  | 'roles'
  | 'selfRegistration'
  | 'identity'
  | 'files'
  // adapter scope: browser clients upload Blobs only; Firebase Auth lets any client create an account
  | 'nodeStreams'
  | 'restrictedSignUp'
  // fetching download links (a stand-in storage server may not serve them)
  | 'downloadLinks'
  // links served over HTTP(S) by a server that checks their token and answers range requests
  // (the in-memory backend's links are data: URLs: fetchable, but no server stands behind them)
  | 'httpDownloadLinks'
  // the backend itself refuses stored model files the content checks refuse: our own
  // servers do; Cloud Storage cannot (the portal and the CLI check before they upload)
  | 'storedContentChecks'
  // the Public ID format on raw catalog writes (security rules; the Admin SDK bypasses them)
  | 'publicIdRule'
  // the format refusal carries the product's code and message (security rules refuse with permission-denied, no message)
  | 'publicIdMessage'
  // Public ID uniqueness within a project on raw catalog writes (rules cannot query; the workflows check it)
  | 'publicIdUniqueness';

/** Capability-based skips: each skipped part with the reason, printed when the suite is declared. */
export interface ContractOptions {
  skip?: Partial<Record<ContractPart, string>>;
  /** Why the whole suite cannot run here (printed), or null/undefined when it can. */
  skipAll?: string | null;
}

/** What each part of the suite receives. Read `env` and the uids inside tests and hooks (they are set in beforeAll). */
export interface ContractContext {
  /** The clients (delegates to the setup made in beforeAll). */
  env: ContractSetup;
  /** The admin client's uid. */
  readonly adminUid: string;
  /** The user client's uid. */
  readonly userUid: string;
  /** A random tag of this run, in every name and id the suite writes. */
  tag: string;
  /** The skipped parts, with their reasons. */
  skip: Partial<Record<ContractPart, string>>;
  /** Project data named after the run's tag and `suffix`, plus `extra` fields. */
  project(suffix: string, extra?: Record<string, unknown>): Record<string, unknown>;
}

/** Resolves with the rejection of `promise` (fails when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw new Error(`expected an AppError, got ${String(error)}`);
  }
  throw new Error('expected a rejection, but the call succeeded');
}

/** Expects `promise` to reject with an AppError of one of `codes`. */
export async function expectCode(promise: Promise<unknown>, ...codes: ErrorCode[]): Promise<void> {
  const error = await rejection(promise);
  expect(codes, `got ${error.code}: ${error.message}`).toContain(error.code);
}

/** Polls `predicate` every 20 ms. @throws Error "timed out waiting for {what}" after `timeoutMs` */
export async function waitFor(predicate: () => boolean, what: string, timeoutMs = 8000): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Deterministic bytes: byte i is (i * 7 + 3) mod 256. */
export function bytes(length: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(new ArrayBuffer(length));
  for (let i = 0; i < length; i += 1) out[i] = (i * 7 + 3) % 256;
  return out;
}

/** A random tag of 8 letters and digits. */
export const randomTag = (): string => Math.random().toString(36).slice(2, 10);
