// What `next/headers` and `next/cache` give a server action under test: the headers the test sets
// on `request`, no cookies, no cache. A test file mocks both modules with these:
//   vi.mock('next/headers', () => import('@/test/next-request').then((m) => m.nextHeaders));
//   vi.mock('next/cache', () => import('@/test/next-request').then((m) => m.nextCache));

export const request = { headers: new Headers() };

export const nextHeaders = {
  headers: async () => request.headers,
  cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => {} }),
};

export const nextCache = { revalidatePath: () => {} };
