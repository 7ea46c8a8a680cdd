// Where a pool lives on this machine: <REPAIRLAB_HOME>/pools/<name>/ holds pool.json (the descriptor that
// `experiment run --pool` and the page read), token (the runners' shared secret, 0600, never printed), and per runner
// a data directory and a log. Tokens named by a descriptor are read here (Node): from the environment or a file.
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parsePoolDescriptor, type RunnerPoolDescriptor, type TokenFrom } from '../../contracts/pool-descriptor.ts';
import { repairlabHome } from '../node-lab.ts';

export interface PoolDir {
  name: string;
  dir: string;
  descriptorFile: string;
  tokenFile: string;
}

export function poolDir(name: string): PoolDir {
  if (!/^[A-Za-z0-9][\w.-]*$/.test(name)) throw new Error(`--name ${name}: use letters, digits and . _ - (starting with a letter or digit).`);
  const dir = path.join(repairlabHome(), 'pools', name);
  return { name, dir, descriptorFile: path.join(dir, 'pool.json'), tokenFile: path.join(dir, 'token') };
}

/** A new pool's directory with a fresh shared token (refused while a pool of that name is up). */
export async function createPoolDir(name: string): Promise<PoolDir> {
  const pool = poolDir(name);
  if (await exists(pool.descriptorFile)) throw new Error(`A pool named "${name}" is up already (${pool.descriptorFile}): \`repairlab pool down --name ${name}\` first, or give another --name.`);
  // others may pass through (as root, bwrap runs the code as nobody, who must reach the runners' data directories)
  // but not list it; the token file itself is 0600
  await mkdir(pool.dir, { recursive: true });
  await chmod(pool.dir, 0o711);
  await writeFile(pool.tokenFile, randomBytes(24).toString('base64url') + '\n', { mode: 0o600 });
  return pool;
}

export async function writeDescriptor(pool: PoolDir, d: RunnerPoolDescriptor): Promise<void> {
  await writeFile(pool.descriptorFile, JSON.stringify(d, null, 2) + '\n');
}

/** A pool by name (under REPAIRLAB_HOME) or a descriptor file's path. */
export async function readPool(nameOrFile: string, flag = '--pool'): Promise<{ descriptor: RunnerPoolDescriptor; file: string }> {
  const file = nameOrFile.endsWith('.json') || nameOrFile.includes('/') ? path.resolve(nameOrFile) : poolDir(nameOrFile).descriptorFile;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new Error(`${flag} ${nameOrFile}: there is no pool descriptor at ${file}; \`repairlab pool up --local 2\` starts one (\`repairlab pool status\` lists them).`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`${file} is not JSON (${(e as Error).message}); write the descriptor again or \`repairlab pool up\` a new pool.`);
  }
  return { descriptor: parsePoolDescriptor(json, file), file };
}

/** The token a TokenFrom names, read in this process; `asked` is the command line's --token. */
export async function readToken(from: TokenFrom, runnerId: string, asked: string | undefined): Promise<string> {
  if ('env' in from) {
    const v = process.env[from.env];
    if (!v) throw new Error(`runner ${runnerId}: its token comes from the environment variable ${from.env}, which is not set; set it (the pool's secret) and run again.`);
    return v;
  }
  if ('file' in from) {
    const v = await readFile(from.file, 'utf8').then((t) => t.trim(), () => '');
    if (!v) throw new Error(`runner ${runnerId}: its token comes from ${from.file}, which cannot be read or is empty; give the pool's secret file there.`);
    return v;
  }
  if (!asked) throw new Error(`runner ${runnerId}: its token is to be given; pass --token (or REPAIRLAB_RUNNER_TOKEN).`);
  return asked;
}

export async function removePoolDir(pool: PoolDir): Promise<void> {
  await rm(pool.dir, { recursive: true, force: true });
}

export const exists = (p: string) => stat(p).then(() => true, () => false);
