// Small helpers over the IsoFs subset (node:fs or lightning-fs).
import type { IsoFs } from '../contracts/platform.ts';

export async function pathExists(fs: IsoFs, path: string): Promise<boolean> {
  try {
    await fs.promises.stat(path);
    return true;
  } catch {
    return false;
  }
}

export async function mkdirp(fs: IsoFs, path: string): Promise<void> {
  const parts = path.split('/').filter(Boolean);
  let current = path.startsWith('/') ? '' : '.';
  for (const part of parts) {
    current = `${current}/${part}`;
    try {
      await fs.promises.mkdir(current);
    } catch (err) {
      if ((err as { code?: string }).code !== 'EEXIST') throw err;
    }
  }
}

export async function removeRecursive(fs: IsoFs, path: string): Promise<void> {
  let stat;
  try {
    stat = await fs.promises.stat(path);
  } catch {
    return;
  }
  if (stat.isDirectory()) {
    for (const name of await fs.promises.readdir(path)) await removeRecursive(fs, `${path}/${name}`);
    await fs.promises.rmdir(path);
  } else {
    await fs.promises.unlink(path);
  }
}

export async function directorySize(fs: IsoFs, path: string): Promise<number> {
  const stat = await fs.promises.stat(path);
  if (!stat.isDirectory()) return stat.size;
  let total = 0;
  for (const name of await fs.promises.readdir(path)) total += await directorySize(fs, `${path}/${name}`);
  return total;
}
