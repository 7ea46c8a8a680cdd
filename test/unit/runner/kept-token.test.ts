// The runner's token kept in its data directory (runner/src/data-dir.ts keptToken): made once, 0600, the same on
// every later start; a file others could read is replaced, one this user cannot trust stops the start.
import { chmod, chown, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirError, keptToken, TOKEN_FILE } from '../../../runner/src/data-dir.ts';

const dirs: string[] = [];
async function dataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'repairlab-kept-token-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const mode = async (file: string) => (await stat(file)).mode & 0o777;
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

describe('the kept runner token', () => {
  it('is made on the first start, readable by this user only, and the same on every later start', async () => {
    const dir = await dataDir();
    const first = await keptToken(dir);
    expect(first).toMatchObject({ file: path.join(dir, TOKEN_FILE), created: true });
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(await mode(first.file)).toBe(0o600);
    expect((await readFile(first.file, 'utf8')).trim()).toBe(first.token);
    const again = await keptToken(dir);
    expect(again).toEqual({ token: first.token, file: first.file, created: false });
    // no temporary file is left beside it
    expect(await readdir(dir)).toEqual([TOKEN_FILE]);
  });

  it('is one token for runners starting together on one data directory', async () => {
    const dir = await dataDir();
    const tokens = await Promise.all(Array.from({ length: 6 }, () => keptToken(dir)));
    expect(new Set(tokens.map((t) => t.token)).size).toBe(1);
    expect(tokens.filter((t) => t.created)).toHaveLength(1);
  });

  it('is replaced when others could read or write the file, and said so', async () => {
    const dir = await dataDir();
    const old = await keptToken(dir);
    await chmod(old.file, 0o644);
    const replaced = await keptToken(dir);
    expect(replaced.token).not.toBe(old.token);
    expect(replaced.created).toBe(true);
    expect(replaced.replaced).toMatch(/had mode 0644, readable or writable by other users/);
    expect(await mode(replaced.file)).toBe(0o600);
  });

  it('is replaced when the file holds no token', async () => {
    const dir = await dataDir();
    await writeFile(path.join(dir, TOKEN_FILE), '', { mode: 0o600 });
    const made = await keptToken(dir);
    expect(made.created).toBe(true);
    expect(made.replaced).toMatch(/did not hold a token/);
  });

  it('stops the start at a symbolic link, naming the file and what to do', async () => {
    const dir = await dataDir();
    const elsewhere = path.join(dir, 'elsewhere');
    await writeFile(elsewhere, 'abcdefghijklmnopqrstuvwxyz0123456789\n', { mode: 0o600 });
    await symlink(elsewhere, path.join(dir, TOKEN_FILE));
    const err = await keptToken(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataDirError);
    expect((err as Error).message).toContain(`${path.join(dir, TOKEN_FILE)} is not a regular file (a symbolic link)`);
    expect((err as Error).message).toMatch(/Remove it, or start the runner with another --data-dir/);
  });

  it.skipIf(!isRoot)("stops the start at another user's file: whoever wrote it knows the token", async () => {
    const dir = await dataDir();
    const kept = await keptToken(dir);
    await chown(kept.file, 65534, 65534);
    const err = await keptToken(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataDirError);
    expect((err as Error).message).toMatch(/belongs to uid 65534, not to this user \(uid 0\)/);
  });
});
