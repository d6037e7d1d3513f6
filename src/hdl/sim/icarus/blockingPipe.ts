// Blocking pipes to a child process, so that the synchronous Simulator API can talk to a running vvp:
// libc's pipe2 (close-on-exec) and poll through koffi, reads and writes through node:fs.
import { closeSync, readSync, writeSync } from 'node:fs';
import koffi from 'koffi';

interface Libc {
  pipe2: (fds: Int32Array, flags: number) => number;
  poll: (fds: Buffer, n: number, timeoutMs: number) => number;
}

let libc: Libc | undefined;

function load(): Libc {
  if (libc) return libc;
  if (process.platform !== 'linux') throw new Error(`the live Icarus back end needs Linux (pipe2, poll); this is ${process.platform}`);
  const so = koffi.load('libc.so.6');
  libc = {
    pipe2: so.func('int pipe2(_Out_ int *fds, int flags)'),
    poll: so.func('int poll(_Inout_ void *fds, unsigned long nfds, int timeout)'),
  } as Libc;
  return libc;
}

const O_CLOEXEC = 0o2000000;
const POLLIN = 0x1;
const EINTR = 4;

/** A pipe whose two ends are blocking file descriptors, closed in every child unless passed explicitly. */
export function blockingPipe(): { read: number; write: number } {
  const fds = new Int32Array(2);
  if (load().pipe2(fds, O_CLOEXEC) !== 0) throw new Error(`pipe2 failed (errno ${koffi.errno()})`);
  return { read: fds[0]!, write: fds[1]! };
}

/** Waits until `fd` can be read (data or end of file); false when `timeoutMs` (≥ 0) passed first. */
export function waitReadable(fd: number, timeoutMs: number): boolean {
  const pfd = Buffer.alloc(8);
  pfd.writeInt32LE(fd, 0);
  pfd.writeInt16LE(POLLIN, 4);
  for (;;) {
    const r = load().poll(pfd, 1, timeoutMs);
    if (r > 0) return true;
    if (r === 0) return false;
    if (koffi.errno() !== EINTR) throw new Error(`poll failed (errno ${koffi.errno()})`);
  }
}

/** Reads exactly `bytes` bytes; null when the other end closed first. */
export function readExactly(fd: number, bytes: number, timeoutMs: number, onTimeout: () => never): Buffer | null {
  const buf = Buffer.alloc(bytes);
  let at = 0;
  while (at < bytes) {
    if (!waitReadable(fd, timeoutMs)) onTimeout();
    const n = readSync(fd, buf, at, bytes - at, null);
    if (n === 0) return null;
    at += n;
  }
  return buf;
}

/** Writes all of `data`; false when the reader is gone (EPIPE). */
export function writeAll(fd: number, data: Uint8Array): boolean {
  let at = 0;
  try {
    while (at < data.length) at += writeSync(fd, data, at, data.length - at);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EPIPE') return false;
    throw e;
  }
  return true;
}

export function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}
