import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';

// A stand-in for Upstash's REST API in front of the local Redis, so @upstash/redis runs unchanged
// against a real Redis in tests (and scripts written for Upstash, shebang and all). It speaks what
// the client uses: POST / (one command), /pipeline and /multi-exec (arrays of commands), Bearer auth, and the
// `Upstash-Encoding: base64` replies that @upstash/redis asks for by default. Loopback only.

type Reply = string | Buffer | number | null | RedisError | Reply[];

class RedisError {
  constructor(readonly message: string) {}
}

/** The connection to Redis failed, as opposed to a bad request. */
class ConnectionError extends Error {}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const MAX_BODY = 1 << 20;

/** A minimal RESP2 client: one connection, commands pipelined, replies matched in order. */
class RespClient {
  private socket: net.Socket | undefined;
  private buffer: Buffer = Buffer.alloc(0);
  private pending: { resolve: (r: Reply) => void; reject: (e: Error) => void }[] = [];

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  /** Sends the commands in one write, so no other caller's command lands between them. */
  send(commands: string[][]): Promise<Reply[]> {
    const socket = this.connect();
    const replies = commands.map(() => new Promise<Reply>((resolve, reject) => this.pending.push({ resolve, reject })));
    socket.write(Buffer.concat(commands.map(encodeCommand)));
    return Promise.all(replies);
  }

  close() {
    this.socket?.destroy();
  }

  private connect(): net.Socket {
    if (this.socket && !this.socket.destroyed) return this.socket;
    const socket = net.createConnection({ host: this.host, port: this.port });
    socket.setNoDelay(true);
    socket.on('data', (chunk) => this.onData(chunk));
    const fail = (reason: string) => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.buffer = Buffer.alloc(0);
      for (const waiter of this.pending.splice(0)) waiter.reject(new ConnectionError(`Redis connection: ${reason}`));
    };
    socket.on('error', (error) => fail(error.message));
    socket.on('close', () => fail('closed'));
    this.socket = socket;
    return socket;
  }

  private onData(chunk: Buffer) {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (;;) {
      const parsed = parseReply(this.buffer, 0);
      if (!parsed) return;
      this.buffer = this.buffer.subarray(parsed.end);
      this.pending.shift()?.resolve(parsed.value);
    }
  }
}

function encodeCommand(args: string[]): Buffer {
  const parts = [`*${args.length}\r\n`];
  for (const arg of args) parts.push(`$${Buffer.byteLength(arg)}\r\n`, arg, '\r\n');
  return Buffer.from(parts.join(''));
}

/** One reply from `buf` at `start`, or undefined when it has not fully arrived yet. */
function parseReply(buf: Buffer, start: number): { value: Reply; end: number } | undefined {
  const lineEnd = buf.indexOf('\r\n', start);
  if (lineEnd < 0) return undefined;
  const line = buf.toString('utf8', start + 1, lineEnd);
  const next = lineEnd + 2;
  switch (String.fromCharCode(buf[start]!)) {
    case '+':
      return { value: line, end: next };
    case '-':
      return { value: new RedisError(line), end: next };
    case ':':
      return { value: Number(line), end: next };
    case '$': {
      const length = Number(line);
      if (length < 0) return { value: null, end: next };
      if (buf.length < next + length + 2) return undefined;
      return { value: Buffer.from(buf.subarray(next, next + length)), end: next + length + 2 };
    }
    case '*': {
      const count = Number(line);
      if (count < 0) return { value: null, end: next };
      const items: Reply[] = [];
      let end = next;
      for (let i = 0; i < count; i++) {
        const item = parseReply(buf, end);
        if (!item) return undefined;
        items.push(item.value);
        end = item.end;
      }
      return { value: items, end };
    }
    default:
      throw new Error(`Unexpected RESP reply type: ${line}`);
  }
}

/**
 * A reply as @upstash/redis decodes it: with base64 on, every string (bulk or status) is base64
 * of its bytes, at any depth; integers and nulls stay JSON. An error nested in an array (only
 * from a script) becomes its message.
 */
function toJson(reply: Reply, base64: boolean): unknown {
  if (reply instanceof RedisError) return toJson(reply.message, base64);
  if (Array.isArray(reply)) return reply.map((item) => toJson(item, base64));
  if (typeof reply === 'string') return base64 ? Buffer.from(reply).toString('base64') : reply;
  if (Buffer.isBuffer(reply)) return reply.toString(base64 ? 'base64' : 'utf8');
  return reply;
}

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');
const UNSUPPORTED_SHEBANG = /^#!lua flags=allow-key-locking[^\n]*\n/;

/**
 * Redis 7.0 refuses the `allow-key-locking` shebang that Ratelimit's scripts start with, so it is
 * cut. The client names scripts by the SHA of the text it holds, so loaded scripts are also
 * known by that SHA, and SCRIPT LOAD answers with it; an unknown SHA still answers NOSCRIPT, on
 * which the client falls back to EVAL.
 */
function scriptRewriter() {
  const shas = new Map<string, string>();
  const load = (script: string) => {
    const stripped = script.replace(UNSUPPORTED_SHEBANG, '');
    if (stripped !== script) shas.set(sha1(script), sha1(stripped));
    return stripped;
  };
  const mapSha = (sha: string) => shas.get(sha.toLowerCase()) ?? sha;
  const isScriptLoad = (command: string[]) =>
    command[0]?.toUpperCase() === 'SCRIPT' && command[1]?.toUpperCase() === 'LOAD' && command[2] !== undefined;
  return {
    command(command: string[]): string[] {
      const [name = '', first, ...rest] = command;
      if (first === undefined) return command;
      const upper = name.toUpperCase();
      if (upper === 'EVAL' || upper === 'EVAL_RO') return [name, load(first), ...rest];
      if (upper === 'EVALSHA' || upper === 'EVALSHA_RO') return [name, mapSha(first), ...rest];
      if (isScriptLoad(command)) return [name, first, load(rest[0]!)];
      if (upper === 'SCRIPT' && first.toUpperCase() === 'EXISTS') return [name, first, ...rest.map(mapSha)];
      return command;
    },
    reply(command: string[], reply: Reply): Reply {
      return isScriptLoad(command) && !(reply instanceof RedisError) ? sha1(command[2]!) : reply;
    },
  };
}

function asCommand(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) throw new Error('a command is a non-empty array');
  return value.map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg)));
}

/** A PING to the server with `token` as its Bearer token. */
export function pingWithToken(url: string, token: string): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(['PING']) });
}

export interface UpstashRestServer {
  url: string;
  close(): Promise<void>;
}

export async function startUpstashRestServer(opts: { token: string; redisUrl?: string }): Promise<UpstashRestServer> {
  const redisUrl = new URL(opts.redisUrl ?? 'redis://127.0.0.1:6379');
  if (!LOOPBACK.has(redisUrl.hostname)) throw new Error(`Refusing a Redis that is not on loopback: ${redisUrl.hostname}`);
  const redis = new RespClient(redisUrl.hostname.replace(/^\[|\]$/g, ''), Number(redisUrl.port || 6379));
  const scripts = scriptRewriter();

  // @upstash/redis batches the commands of one tick into /pipeline by default (auto-pipelining),
  // so every path goes through the same rewriting.
  const execute = async (commands: string[][], transaction: boolean): Promise<Reply[] | RedisError> => {
    const sent = commands.map((command) => scripts.command(command));
    const fix = (replies: Reply[]) => replies.map((reply, i) => scripts.reply(commands[i]!, reply));
    if (!transaction) return fix(await redis.send(sent));
    const exec = (await redis.send([['MULTI'], ...sent, ['EXEC']])).at(-1)!;
    if (exec instanceof RedisError) return exec;
    return Array.isArray(exec) ? fix(exec) : new RedisError('EXECABORT Transaction discarded');
  };

  const answer = async (path: string, body: unknown, base64: boolean): Promise<{ status: number; json: unknown }> => {
    const entry = (reply: Reply) =>
      reply instanceof RedisError ? { error: reply.message } : { result: toJson(reply, base64) };
    if (path === '/') {
      const [reply] = (await execute([asCommand(body)], false)) as Reply[];
      return { status: reply instanceof RedisError ? 400 : 200, json: entry(reply!) };
    }
    if (!Array.isArray(body) || body.length === 0) throw new Error('expected an array of commands');
    const replies = await execute(body.map(asCommand), path === '/multi-exec');
    if (replies instanceof RedisError) return { status: 400, json: { error: replies.message } };
    return { status: 200, json: replies.map(entry) };
  };

  const server = http.createServer((req, res) => {
    const reply = (status: number, json: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    };
    if (req.headers.authorization !== `Bearer ${opts.token}`) {
      req.resume();
      return reply(401, { error: 'Unauthorized' });
    }
    const path = new URL(req.url ?? '/', 'http://localhost').pathname.replace(/(.)\/+$/, '$1');
    if (req.method !== 'POST' || !['/', '/pipeline', '/multi-exec'].includes(path)) {
      req.resume();
      return reply(404, { error: 'Not found' });
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) req.destroy();
      else chunks.push(chunk);
    });
    req.on('end', () => {
      const base64 = req.headers['upstash-encoding']?.toString().toLowerCase() === 'base64';
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return reply(400, { error: 'ERR body is not JSON' });
      }
      answer(path, body, base64).then(
        ({ status, json }) => reply(status, json),
        (error: Error) => reply(error instanceof ConnectionError ? 502 : 400, { error: `ERR ${error.message}` }),
      );
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        redis.close();
      }),
  };
}
