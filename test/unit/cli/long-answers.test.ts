// The CLI's fetch waits for a runner answer as long as the validation takes: Node's fetch (undici) gives up on headers
// after 300 s by default, which a whole Lang or Math suite outlasts. Here the dispatcher first gets a 1 s limit (the
// default, shortened), and a real HTTP server answers after 2.5 s.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { allowLongAnswers } from '../../../worker/cli/node-lab.ts';

let server: Server;
let url: string;
const original = getGlobalDispatcher();

beforeAll(async () => {
  server = createServer((_req, res) => setTimeout(() => res.end('validated'), 2500));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => {
  setGlobalDispatcher(original);
  server.close();
});

it('a slow answer fails under a headers limit, and arrives once the CLI allows long answers', async () => {
  setGlobalDispatcher(new Agent({ headersTimeout: 1000 }));
  await expect(fetch(url)).rejects.toMatchObject({ cause: { code: 'UND_ERR_HEADERS_TIMEOUT' } });
  await allowLongAnswers();
  expect(await (await fetch(url)).text()).toBe('validated');
}, 20_000);
