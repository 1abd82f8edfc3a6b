import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { openPostgres } from './client';

describe('openPostgres', () => {
  it('fails with a clear message when DATABASE_URL does not answer', async () => {
    // A port on loopback that was just free: nothing listens there.
    const server = net.createServer().listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const { port } = server.address() as net.AddressInfo;
    await new Promise((r) => server.close(r));
    await expect(openPostgres(`postgres://postgres@127.0.0.1:${port}/nothing`)).rejects.toThrow(
      `DATABASE_URL does not answer (127.0.0.1:${port})`,
    );
  });
});
