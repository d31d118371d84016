// The key that signs the `--cache` file, so a cache someone else wrote (committed with the repository, or left in a
// shared directory) is never believed: entries are read only when the file's HMAC-SHA256 under this key matches.
// The key is 32 random bytes in a file only the user can read (`$XDG_CONFIG_HOME/pvlint/cache-key`, else
// `~/.config/pvlint/cache-key`; `PVLINT_CACHE_KEY_FILE` names another), created with O_EXCL and mode 0600. A key
// file that another user owns, or that others may read or write, is not used: the cache is then neither read nor
// written, and the run says why.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readSync, writeSync, constants } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const MAC_BYTES = 32;

export function keyFilePath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PVLINT_CACHE_KEY_FILE) return path.resolve(env.PVLINT_CACHE_KEY_FILE);
  const config = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(os.homedir(), '.config');
  return path.join(config, 'pvlint', 'cache-key');
}

/** Whether a file's owner and mode make it private to this user. */
function isPrivate(info: { uid: number; mode: number }): boolean {
  const uid = process.getuid?.();
  return (uid === undefined || info.uid === uid) && (info.mode & 0o077) === 0;
}

/** The user's cache key, made on first use; a string saying why there is none. */
export function cacheKey(file = keyFilePath()): Buffer | string {
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    let fd: number;
    try {
      fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
      const key = randomBytes(32);
      writeSync(fd, key);
      closeSync(fd);
      return key;
    } catch (error) {
      if ((error as NodeJS.ErrnoException)?.code !== 'EEXIST') throw error;
    }
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
    try {
      const info = fstatSync(fd);
      if (!info.isFile() || !isPrivate(info)) return `the cache key ${file} is not a private file of this user (owner and mode 0600); the cache is not used`;
      const key = Buffer.alloc(32);
      if (readSync(fd, key, 0, 32, 0) !== 32) return `the cache key ${file} is shorter than 32 bytes; delete it to make a new one`;
      return key;
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return `the cache key ${file} cannot be used (${(error as NodeJS.ErrnoException)?.code ?? String(error)}); the cache is not used`;
  }
}

export function sign(key: Buffer, payload: Uint8Array): Buffer {
  return createHmac('sha256', key).update(payload).digest();
}

/** The payload of a signed file when its MAC is right; undefined otherwise. */
export function verified(key: Buffer, file: Buffer): Buffer | undefined {
  if (file.length < MAC_BYTES) return undefined;
  const payload = file.subarray(MAC_BYTES);
  return timingSafeEqual(file.subarray(0, MAC_BYTES), sign(key, payload)) ? payload : undefined;
}
