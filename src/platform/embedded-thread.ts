/**
 * The embedded database (PGlite) on a thread of its own. PGlite is PostgreSQL compiled to WebAssembly: run on
 * the server's thread, every statement's work competes with HTTP, validation and serialization for one core,
 * so writes ran 3 to 6 times slower than on a PostgreSQL server, whose backends work on the other cores. Here
 * the instance lives in a worker (pglite-thread.mjs) and this client forwards the calls the query builder and
 * the rest of the server make (query, exec, transaction, dump, close); rows cross the thread boundary as
 * structured clones. Like PGlite itself, a transaction holds the database until it ends, and other statements
 * wait for it; the calls waiting are taken in the order they came, those of background work
 * (`runAsBackground`, passes.ts) after the requests' (see pglite-thread.mjs).
 *
 * A statement outside a transaction is asked for and answered as messages, while this thread goes on with
 * other requests. Inside a transaction, which holds the database until it ends, this thread waits for each
 * answer instead (Atomics.wait on a shared flag, the answer taken from a port of its own): the transaction's
 * next statement is sent at once rather than after whatever HTTP work is queued, so a transaction holds the
 * database for the time of its statements only, as it did on this thread. Two calls of a transaction are
 * messages all the same: BEGIN, sent with the first statement (it may wait for the database), and the end (the
 * commit needs nothing more from this thread). A background transaction is not waited for at all (its
 * statements can be long, and nobody waits for its answer): its statements are messages too.
 *
 * A thread that stops (a crash, an uncaught error, out of memory, terminate) fails every call waiting for it
 * and every later one. A blocked wait cannot see the worker's 'exit' event, which comes through this thread's
 * event loop: the thread marks the shared flag as it exits, and the wait, in slices, also asks Node whether
 * the thread still runs, for the ends that run no JavaScript there (out of memory, terminate).
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { isBackgroundWork } from './passes.js';

export interface EmbeddedResults<T = unknown> {
  rows: T[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
}

interface QueryOptions {
  rowMode?: 'array' | 'object';
  /**
   * Type ids whose values are to be left as PostgreSQL's text. Functions do not cross threads: a parser
   * given here is taken to be the identity (the query builder's are: dates and intervals stay text).
   */
  parsers?: Record<number, unknown>;
}

/** What the server uses of an embedded database, on this thread or in a transaction. */
export interface EmbeddedQueryable {
  query<T = unknown>(text: string, params?: unknown[], options?: QueryOptions): Promise<EmbeddedResults<T>>;
  exec(text: string, options?: QueryOptions): Promise<EmbeddedResults[]>;
}

export interface EmbeddedClient extends EmbeddedQueryable {
  transaction<T>(fn: (tx: EmbeddedQueryable) => Promise<T>): Promise<T>;
  dumpDataDir(compression?: 'gzip' | 'none' | 'auto'): Promise<Blob>;
  close(): Promise<void>;
  /** Stops the thread at once, without closing the database (what has not reached its files is lost). */
  terminate(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir?: string;
  loadDataDir?: Blob;
  postgresqlconf?: string[];
}

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
}

/** The worker's script: next to this module, from source and when compiled (the build copies it). */
function threadScript(): URL {
  const here = new URL('./pglite-thread.mjs', import.meta.url);
  if (fs.existsSync(fileURLToPath(here))) return here;
  throw new Error(`The embedded database's thread script is missing: ${fileURLToPath(here)}`);
}

/** An error from the database's thread, with PostgreSQL's fields (code, constraint, detail, ...) as they were. */
function revive(data: Record<string, unknown>): Error {
  const err = new Error(String(data.message));
  Object.assign(err, data);
  return err;
}

type Reply = { id: number; ok: boolean; result?: unknown; error?: Record<string, unknown> };

/** The shared flag's value once the thread has stopped (answered ids are stored as non-negative numbers). */
const STOPPED = -1;
/** How long a blocked wait for an answer lasts before it asks whether the thread still runs. */
const WAIT_SLICE_MS = 100;

/**
 * Whether the thread has stopped, asked of Node at once, without the 'exit' event (which waits for this
 * thread's event loop): Node answers an idle time of -1 for the event loop of a stopped thread. It reads the
 * loop's start once, on the first call, which must come while the thread runs (see `openEmbeddedThread`).
 */
function stoppedNow(worker: Worker): boolean {
  return worker.performance.eventLoopUtilization().idle < 0;
}

export async function openEmbeddedThread(opts: EmbeddedOptions): Promise<EmbeddedClient> {
  // the answers to calls made inside a transaction: a port read synchronously, and a flag to wait on (the id of
  // the call last answered, or STOPPED)
  const { port1: syncAnswers, port2: syncPort } = new MessageChannel();
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(threadScript(), { workerData: { syncPort, flag }, transferList: [syncPort] });
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let failure: Error | undefined;

  // the thread keeps the process alive only while a call waits for it: an idle database, like PGlite on this
  // thread, does not hold a process open that has nothing else to do
  worker.unref();
  const settle = (id: number) => {
    const p = pending.get(id);
    pending.delete(id);
    if (!pending.size) worker.unref();
    return p;
  };
  worker.on('message', (msg: Reply) => {
    const p = settle(msg.id);
    if (!p) return;
    if (msg.ok) p.resolve(msg.result);
    else p.reject(revive(msg.error ?? {}));
  });
  const fail = (err: Error) => {
    failure ??= err;
    Atomics.store(flag, 0, STOPPED);
    for (const [id, p] of [...pending]) {
      settle(id);
      p.reject(failure);
    }
  };
  worker.on('error', (err) => fail(new Error(`The embedded database's thread stopped: ${err.message}`, { cause: err })));
  worker.on('exit', (code) => fail(new Error(`The embedded database's thread stopped (exit code ${code})`)));

  const call = <T>(msg: Record<string, unknown>, transfer?: ArrayBuffer[]): Promise<T> => {
    if (failure) return Promise.reject(failure);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      if (!pending.size) worker.ref();
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      worker.postMessage({ ...msg, id }, transfer);
    });
  };

  /** The answer to call `id` inside a transaction, waited for on this thread (see above). */
  const awaitAnswer = (id: number): Reply => {
    // the thread stores the id of the call it answered; a wake-up meant for an earlier call (its notify can come
    // after that call read its answer) finds another id and waits again
    const mark = id & 0x7fffffff;
    for (;;) {
      const seen = Atomics.load(flag, 0);
      if (seen === mark) break;
      if (seen === STOPPED || (Atomics.wait(flag, 0, seen, WAIT_SLICE_MS) === 'timed-out' && stoppedNow(worker))) {
        // an answer sent just before the thread stopped still counts
        const late = receiveMessageOnPort(syncAnswers)?.message as Reply | undefined;
        if (late?.id === id) return late;
        failure ??= new Error("The embedded database's thread stopped");
        Atomics.store(flag, 0, STOPPED);
        throw failure;
      }
    }
    const answer = receiveMessageOnPort(syncAnswers)?.message as Reply | undefined;
    if (!answer || answer.id !== id) throw new Error(`The embedded database's thread answered out of turn (call ${id})`);
    return answer;
  };

  /** A call inside a transaction: this thread waits for its answer (see above). */
  const callInTransaction = async <T>(msg: Record<string, unknown>): Promise<T> => {
    if (failure) throw failure;
    const id = nextId++;
    worker.postMessage({ ...msg, id, sync: true });
    const answer = awaitAnswer(id);
    if (!answer.ok) throw revive(answer.error ?? {});
    return answer.result as T;
  };

  /** Statements outside a transaction (answered as messages), or inside transaction `tx` through its `send`. */
  const queryable = (tx?: number, send: <T>(msg: Record<string, unknown>) => Promise<T> = call): EmbeddedQueryable => {
    const bg = tx === undefined ? () => isBackgroundWork() || undefined : () => undefined;
    return {
      query: (text, params, options) =>
        send({ op: 'query', tx, bg: bg(), text, params: params ?? [], rowMode: options?.rowMode, rawTypes: rawTypes(options) }),
      exec: (text, options) => send({ op: 'exec', tx, bg: bg(), text, rowMode: options?.rowMode, rawTypes: rawTypes(options) }),
    };
  };

  const loadDataDir = opts.loadDataDir ? await opts.loadDataDir.arrayBuffer() : undefined;
  try {
    await call(
      { op: 'open', dataDir: opts.dataDir, loadDataDir, postgresqlconf: opts.postgresqlconf },
      loadDataDir ? [loadDataDir] : undefined,
    );
  } catch (err) {
    await worker.terminate();
    throw err;
  }
  // read while the thread runs: from now on `stoppedNow` can tell
  worker.performance.eventLoopUtilization();

  return {
    ...queryable(),
    async transaction(fn) {
      if (failure) throw failure;
      const background = isBackgroundWork();
      const tx = nextId++;
      // BEGIN goes with the transaction's first statement, as one call answered as a message (it may wait for
      // the database); the statements after it are waited for on this thread
      let opened: Promise<void> | undefined;
      let open = false;
      const send = async <T>(msg: Record<string, unknown>): Promise<T> => {
        if (open) return background ? call<T>(msg) : callInTransaction<T>(msg);
        if (opened) {
          await opened;
          return send(msg);
        }
        const answer = call<{ result?: T; error?: Record<string, unknown> }>({ op: 'begin', tx, bg: background || undefined, first: msg });
        opened = answer.then(() => {
          open = true;
        });
        opened.catch(() => undefined);
        const { result, error } = await answer;
        if (error) throw revive(error);
        return result as T;
      };
      // a transaction that ran no statement has nothing to end; the end is a message: this thread goes on
      // with other requests while the database commits
      const end = async (commit: boolean) => {
        if (!opened) return;
        try {
          await opened;
        } catch {
          return; // BEGIN failed: no transaction was opened
        }
        await call({ op: 'end', tx, commit });
      };
      let result;
      try {
        result = await fn(queryable(tx, send));
      } catch (err) {
        // a thread that stopped has nothing to roll back: the caller learns what failed first
        await end(false).catch((endErr: unknown) => {
          if (!failure) throw endErr;
        });
        throw err;
      }
      await end(true);
      return result;
    },
    async dumpDataDir(compression) {
      const data = await call<ArrayBuffer>({ op: 'dump', compression });
      return new Blob([data], { type: compression === 'none' ? 'application/x-tar' : 'application/x-gzip' });
    },
    async terminate() {
      // a transaction's next call fails at once, before the 'exit' event comes
      failure ??= new Error("The embedded database's thread stopped (terminated)");
      Atomics.store(flag, 0, STOPPED);
      await worker.terminate();
    },
    async close() {
      if (failure) return;
      try {
        await call({ op: 'close' });
      } finally {
        failure = new Error('The embedded database is closed');
        Atomics.store(flag, 0, STOPPED);
        await worker.terminate();
      }
    },
  };
}

function rawTypes(options?: QueryOptions): number[] | undefined {
  return options?.parsers ? Object.keys(options.parsers).map(Number) : undefined;
}
