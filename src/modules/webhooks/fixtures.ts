/** Test factory: a webhook receiver on 127.0.0.1 that records what it is sent and answers as told. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: any;
  at: number;
}

export interface Receiver {
  url(path?: string): string;
  received: Received[];
  /** the status a path answers (default 200); `hang` never answers */
  answer(path: string, status: number | 'hang'): void;
  /** resolves once `n` requests (to `path`, when given) have arrived */
  waitFor(n: number, path?: string, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const answers = new Map<string, number | 'hang'>();
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body, json, at: Date.now() });
      const status = answers.get(path) ?? 200;
      if (status === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'not now');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    answer: (path, status) => answers.set(path, status),
    async waitFor(n, path, timeoutMs = 15_000) {
      const started = Date.now();
      for (;;) {
        const got = path ? received.filter((r) => r.path === path) : received;
        if (got.length >= n) return got;
        if (Date.now() - started > timeoutMs) throw new Error(`waited ${timeoutMs} ms for ${n} requests${path ? ` to ${path}` : ''}, got ${got.length}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
