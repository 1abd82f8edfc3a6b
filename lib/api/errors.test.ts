import { describe, expect, it } from 'vitest';
import { ApiError } from './errors';

describe('ApiError', () => {
  it('is an Error to instanceof and to print, with its code and status, and captures no stack', () => {
    const error = new ApiError('unauthorized', 'Send Authorization: Bearer <api_key>:<api_secret>', { headers: { 'WWW-Authenticate': 'Bearer' } });
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'ApiError', code: 'unauthorized', status: 401, message: 'Send Authorization: Bearer <api_key>:<api_secret>' });
    expect(error.options.headers).toEqual({ 'WWW-Authenticate': 'Bearer' });
    expect(String(error)).toBe('ApiError: Send Authorization: Bearer <api_key>:<api_secret>');
    expect(error.stack).toBeUndefined();
    expect(() => {
      throw new ApiError('not_found', 'No plan with this id');
    }).toThrow(ApiError);
  });
});
