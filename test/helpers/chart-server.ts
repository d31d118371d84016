// A chart repository for tests: a static file server on 127.0.0.1 for what `helm package` and `helm repo index`
// wrote into a directory, recording the paths asked for.
import { createReadStream, existsSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export async function serveCharts(dir: string): Promise<{ url: string; requests: string[]; close: () => Promise<void> }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    const file = path.join(dir, decodeURIComponent((req.url ?? '/').split('?')[0]).replace(/^\/charts\//, ''));
    if (!file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200);
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/charts`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
