/**
 * Copying media files from the shop's media folder (`--media-dir`) into ours. A path the database holds is
 * not trusted: it is refused when it has `..` segments, when the file it leads to (symlinks followed) is not
 * inside the real media folder, or is not a regular file (a folder, a device, a FIFO). The copy is written
 * only inside our own real media folder, never through a symlink found there.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { ImportContext } from './context.js';
import { ImportRefused } from './refused.js';

export type MediaCopy = { ok: true } | { ok: false; missing: true } | { ok: false; missing: false; reason: string };

const refused = (reason: string): MediaCopy => ({ ok: false, missing: false, reason });

const inside = (root: string, p: string) => p.startsWith(root + path.sep);

const codeOf = (err: unknown) => (err as NodeJS.ErrnoException).code ?? 'error';

/** Real paths of both media folders, resolved once per run; null when no media folder was given. */
async function roots(ctx: ImportContext): Promise<{ from: string; to: string } | null> {
  let found = ctx.memo.get('mediaRoots') as { from: string; to: string } | null | undefined;
  if (found !== undefined) return found;
  found = null;
  if (ctx.mediaDir && ctx.mediaTarget) {
    // a dry run creates nothing, not even our media folder
    if (!ctx.dryRun) await fs.mkdir(ctx.mediaTarget, { recursive: true });
    const to = await fs.realpath(ctx.mediaTarget).catch(() => path.resolve(ctx.mediaTarget!));
    const from = await fs.realpath(ctx.mediaDir).catch(() => {
      throw new ImportRefused(`--media-dir ${ctx.mediaDir} cannot be read`);
    });
    found = { from, to };
  }
  ctx.memo.set('mediaRoots', found);
  return found;
}

/** Why a stored file path is refused before any file is looked at, or null when it may be used. */
export function unsafeMediaPath(relative: string): string | null {
  if (!relative) return 'its path is empty';
  if (relative.includes('\0')) return 'its path holds a NUL byte';
  if (relative.split(/[/\\]/).includes('..')) return 'its path climbs out of its folder (..)';
  return null;
}

/**
 * Makes the folders of `dir` below `root` one at a time, refusing one that exists as anything but a real
 * folder (a symlink there could lead the copy out of our media folder).
 */
async function makeFolders(root: string, dir: string): Promise<string | null> {
  let at = root;
  for (const seg of path.relative(root, dir).split(path.sep).filter(Boolean)) {
    at = path.join(at, seg);
    try {
      const st = await fs.lstat(at);
      if (!st.isDirectory()) return `${path.relative(root, at)} in our media folder is not a plain folder`;
    } catch (err) {
      if (codeOf(err) !== 'ENOENT') throw err;
      await fs.mkdir(at).catch((e: unknown) => {
        if (codeOf(e) !== 'EEXIST') throw e;
      });
    }
  }
  return null;
}

/**
 * Copies `<media-dir>/<folder>/<relative>` to `<our media folder>/<folder>/<relative>`. Without `replace` a
 * file already there is left alone. A dry run checks the file and writes nothing. Without a media folder
 * nothing is done.
 */
export async function copyMedia(ctx: ImportContext, folder: string, relative: string, opts: { replace: boolean }): Promise<MediaCopy> {
  const r = await roots(ctx);
  if (!r) return { ok: true };
  const rel = relative.replace(/^\/+/, '');
  const unsafe = unsafeMediaPath(rel);
  if (unsafe) return refused(unsafe);
  const from = path.resolve(r.from, folder, rel);
  const to = path.resolve(r.to, folder, rel);
  if (!inside(r.from, from) || !inside(r.to, to)) return refused('its path leads outside the media folder');
  let real: string;
  try {
    real = await fs.realpath(from);
  } catch (err) {
    if (codeOf(err) === 'ENOENT' || codeOf(err) === 'ENOTDIR') return { ok: false, missing: true };
    return refused(`it cannot be read (${codeOf(err)})`);
  }
  // a symlink may lead anywhere: what counts is where the file really is
  if (!inside(r.from, real)) return refused('it is a symlink to a file outside the media folder');
  if (!(await fs.stat(real)).isFile()) return refused('it is not a regular file');
  if (
    !opts.replace &&
    (await fs.lstat(to).then(
      () => true,
      () => false,
    ))
  )
    return { ok: true };
  if (ctx.dryRun) return { ok: true };
  const folderProblem = await makeFolders(r.to, path.dirname(to));
  if (folderProblem) return refused(folderProblem);
  // read without following a symlink swapped in since, nor waiting on a FIFO; written under a new name and
  // renamed over the target, which replaces a symlink there rather than writing through it
  let source: FileHandle;
  try {
    source = await fs.open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    return refused(`it cannot be read (${codeOf(err)})`);
  }
  const temp = path.join(path.dirname(to), `.import-${randomBytes(6).toString('hex')}`);
  try {
    if (!(await source.stat()).isFile()) return refused('it is not a regular file');
    await fs.writeFile(temp, await source.readFile(), { flag: 'wx' });
    await fs.rename(temp, to);
    return { ok: true };
  } catch (err) {
    await fs.rm(temp, { force: true });
    return refused(`it could not be copied (${codeOf(err)})`);
  } finally {
    await source.close();
  }
}
