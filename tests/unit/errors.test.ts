import { describe, expect, it } from 'vitest';
import { AppError, ErrorCode, rewrap } from '@shared/errors.js';

describe('rewrap (one home for "the operation failed" over a caught error)', () => {
  it("keeps an AppError's code and context under the operation's message", () => {
    const denied = new AppError(ErrorCode.PermissionDenied, 'Missing or insufficient permissions.', { context: { path: 'models/m1' } });
    const wrapped = rewrap(denied, 'Failed to update reference model.');
    expect(wrapped).toBeInstanceOf(AppError);
    expect(wrapped.code).toBe(ErrorCode.PermissionDenied);
    expect(wrapped.message).toBe('Failed to update reference model.');
    expect(wrapped.context).toEqual({ path: 'models/m1' });
    expect(wrapped.cause).toBe(denied);
  });

  it('is internal for anything else', () => {
    const cause = new TypeError('x is undefined');
    const wrapped = rewrap(cause, 'Failed to update model visibility.');
    expect(wrapped.code).toBe(ErrorCode.Internal);
    expect(wrapped.cause).toBe(cause);
  });
});
