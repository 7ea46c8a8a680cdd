// The runner's data directory at start: created with permissions the sandbox user can traverse (or refused with what
// to do), swept of what earlier runs left behind (half-written blobs and trees, dead workers' directories), and the
// keeper of the runner's token between starts (runner-token, 0600).
import { randomBytes, randomUUID } from 'node:crypto';
import { constants, existsSync, statSync } from 'node:fs';
import { chmod, link, lstat, mkdir, open, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The uid sandboxed code runs as when the runner is root (sandbox.ts SANDBOX_UID: the kernel does not apply the
 * process limit to root, so bwrap drops to nobody).
 */
const SANDBOX_UID = 65534;

export class DataDirError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataDirError';
  }
}

function canTraverse(dir: string, uid: number): boolean {
  const st = statSync(dir);
  if (st.uid === uid) return (st.mode & 0o100) !== 0;
  if (st.gid === uid) return (st.mode & 0o010) !== 0;
  return (st.mode & 0o001) !== 0;
}

/**
 * Creates `dataDir`. When sandboxed code runs as another user (root runner, bwrap), every directory above the data
 * directory must let that user through: the ones this call created are opened (0755); an existing one that is closed
 * (e.g. made by `mktemp -d`, mode 0700) stops the start with the directory's name and what to do.
 */
export async function prepareDataDir(dataDir: string, sandboxRunsAsOtherUser: boolean): Promise<void> {
  const ancestors: string[] = [];
  for (let d = path.dirname(dataDir); ; d = path.dirname(d)) {
    ancestors.unshift(d);
    if (d === path.dirname(d)) break;
  }
  const created = [...ancestors, dataDir].filter((d) => !existsSync(d));
  await mkdir(dataDir, { recursive: true, mode: 0o755 });
  // mkdir's mode is filtered by the umask: open the directories made here explicitly
  for (const d of created) await chmod(d, 0o755);
  if (!sandboxRunsAsOtherUser) return;
  const closed = ancestors.find((d) => !canTraverse(d, SANDBOX_UID));
  if (closed !== undefined) {
    const mode = (statSync(closed).mode & 0o777).toString(8).padStart(4, '0');
    throw new DataDirError(
      `the data directory ${dataDir} is inside ${closed} (mode ${mode}), which the sandbox user (uid ${SANDBOX_UID}) cannot enter, so every validation would fail. ` +
        `Run \`chmod o+x ${closed}\`, or start the runner with --data-dir in a directory others can enter (the default is under /tmp).`,
    );
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether another live runner uses `dataDir` (its marker under <dataDir>/runners); markers of dead runners are removed.
 * Call it after markRunner (with this runner's marker as `own`): two runners starting together then both see each
 * other, and neither sweeps what the other is writing.
 */
export async function otherRunnersAlive(dataDir: string, own?: string): Promise<boolean> {
  const dir = path.join(dataDir, 'runners');
  let othersAlive = false;
  for (const name of await entries(dir)) {
    if (name === own) continue;
    const pid = Number(name.split('-')[0]);
    if (Number.isInteger(pid) && pid > 0 && alive(pid)) othersAlive = true;
    else await rm(path.join(dir, name), { force: true });
  }
  return othersAlive;
}

/** Marks this runner as using `dataDir` until `unmark` is called; `name` is the marker's file name. */
export async function markRunner(dataDir: string): Promise<{ name: string; unmark: () => Promise<void> }> {
  const dir = path.join(dataDir, 'runners');
  await mkdir(dir, { recursive: true });
  const name = `${process.pid}-${randomUUID()}`;
  await writeFile(path.join(dir, name), '');
  return { name, unmark: () => rm(path.join(dir, name), { force: true }) };
}

/** `<name>.tmp-<pid>-…` (java-env.ts buildHarness): a build still under way while its process lives. */
function buildOfLiveProcess(name: string): boolean {
  const pid = Number(/\.tmp-(\d+)-/.exec(name)?.[1]);
  return Number.isInteger(pid) && pid > 0 && alive(pid);
}

async function entries(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

/**
 * Removes what interrupted runs left: `.tmp` blobs and manifests, half-materialised trees and harness builds, and
 * every worker directory under work/. Skipped when another live runner shares the data directory (those names are
 * also what a live runner is writing). Returns the paths removed.
 */
export async function sweepLeftovers(dataDir: string, othersAlive: boolean): Promise<string[]> {
  if (othersAlive) return [];
  const doomed: string[] = [];
  const blobs = path.join(dataDir, 'blobs');
  for (const fan of await entries(blobs)) {
    for (const name of await entries(path.join(blobs, fan))) if (name.endsWith('.tmp')) doomed.push(path.join(blobs, fan, name));
  }
  for (const name of await entries(path.join(dataDir, 'snapshots'))) if (name.endsWith('.tmp')) doomed.push(path.join(dataDir, 'snapshots', name));
  for (const name of await entries(path.join(dataDir, 'trees'))) if (name.startsWith('.')) doomed.push(path.join(dataDir, 'trees', name));
  // a harness build is javac writing into its .tmp directory: removing it mid-build left a cache of a few classes
  for (const name of await entries(path.join(dataDir, 'harness'))) if (name.includes('.tmp-') && !buildOfLiveProcess(name)) doomed.push(path.join(dataDir, 'harness', name));
  for (const name of await entries(path.join(dataDir, 'work'))) doomed.push(path.join(dataDir, 'work', name));
  await Promise.all(doomed.map((p) => rm(p, { recursive: true, force: true })));
  return doomed;
}

/** The file in the data directory that keeps the runner's token between starts (mode 0600, never in a sandbox). */
export const TOKEN_FILE = 'runner-token';

export interface KeptToken {
  token: string;
  /** where it is kept */
  file: string;
  /** made by this start (none was kept, or the kept one was not safe to reuse) */
  created: boolean;
  /** why a kept token was replaced, for the log */
  replaced?: string;
}

const newToken = () => randomBytes(24).toString('base64url');
/** what a token this runner made looks like; anything else in the file is not one of ours */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,200}$/;

/**
 * The runner's token for `dataDir`: the one kept in <dataDir>/runner-token, or a new random one written there (0600).
 * Why kept: a restarted runner (`npm start`, `npm run runner`) keeps its token, so an open page, a CLI's
 * --token or a run waiting for the runner goes on without being told a new one.
 *
 * Only a file this user owns, that nobody else can read or write (mode 0600) and that holds a token is reused: one
 * others could read may have been read, so it is replaced by a new token (said in `replaced`). A file this process
 * cannot trust at all — another user's, a symbolic link, not a regular file — stops the start with what to do,
 * since replacing it is not ours to do either. The sandbox never sees the file: it is bound only trees/, harness/,
 * work/ and the uploaded jars (sandbox.ts).
 */
export async function keptToken(dataDir: string): Promise<KeptToken> {
  const file = path.join(dataDir, TOKEN_FILE);
  const existing = await readKeptToken(file);
  if (existing.token !== undefined) return { token: existing.token, file, created: false };
  if (existing.unsafe) await rm(file, { force: true });
  // written whole under a temporary name, then linked into place: a runner starting at the same moment either
  // finds no file or a complete one, and the first link wins (the loser reads the winner's token)
  const token = newToken();
  const tmp = `${file}.tmp-${process.pid}-${randomUUID()}`;
  await writeFile(tmp, `${token}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await chmod(tmp, 0o600); // the mode of writeFile is filtered by the umask; 0600 is what it must be
    await link(tmp, file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    const winner = await readKeptToken(file);
    if (winner.token === undefined) throw new DataDirError(`${file} appeared while this runner was writing its token, and cannot be used (${winner.unsafe ?? 'empty'}). Remove it and start the runner again.`);
    return { token: winner.token, file, created: false };
  } finally {
    await rm(tmp, { force: true });
  }
  return { token, file, created: true, ...(existing.unsafe ? { replaced: existing.unsafe } : {}) };
}

/** The kept token, or why the file there cannot be reused (`unsafe`: replace it), or nothing there at all. */
async function readKeptToken(file: string): Promise<{ token?: string; unsafe?: string }> {
  let st;
  try {
    st = await lstat(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw e;
  }
  if (st.isSymbolicLink() || !st.isFile()) {
    throw new DataDirError(`${file} is not a regular file (${st.isSymbolicLink() ? 'a symbolic link' : 'a directory or device'}); the runner keeps its token there. Remove it, or start the runner with another --data-dir.`);
  }
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  if (uid !== undefined && st.uid !== uid) {
    throw new DataDirError(
      `${file} belongs to uid ${st.uid}, not to this user (uid ${uid}): whoever wrote it knows the token it holds. ` +
        'Remove it, or start the runner with --data-dir in a directory of your own.',
    );
  }
  if ((st.mode & 0o077) !== 0) return { unsafe: `${file} had mode ${(st.mode & 0o777).toString(8).padStart(4, '0')}, readable or writable by other users` };
  // O_NOFOLLOW: the file checked above is the file read, even if the path was swapped for a link in between
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const token = (await handle.readFile('utf8')).trim();
    return TOKEN_SHAPE.test(token) ? { token } : { unsafe: `${file} did not hold a token` };
  } finally {
    await handle.close();
  }
}
