import { beforeAll, describe, expect, it } from 'vitest';
import { type Database, setDatabase } from '@/db/client';
import { useTestDatabase } from '@/test/database';
import { call } from '@/test/http';
import { GET } from './route';

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

describe('GET /api/health', () => {
  it('answers 200 while the database answers', async () => {
    const res = await call(GET);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'ok', db: 'ok' });
    expect(res.headers.get('cache-control')).toBe('no-store, no-transform');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('answers 503 once the database has gone away', async () => {
    const gone: Database = { ...database, db: { execute: () => Promise.reject(new Error('connection terminated')) } as never };
    setDatabase(gone);
    try {
      const res = await call(GET);
      expect(res.status).toBe(503);
      expect(res.json).toEqual({ status: 'error', db: 'unreachable' });
    } finally {
      setDatabase(database);
    }
  });
});
