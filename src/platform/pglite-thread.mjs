/**
 * The embedded database's own thread: a worker that holds the PGlite instance and answers the calls of
 * `openEmbeddedThread` (embedded-thread.ts), so that PostgreSQL's work runs on a core of its own while the
 * server's thread handles HTTP, as a PostgreSQL server's backends would. Plain JavaScript: a worker thread
 * starts without the TypeScript loader the tests run under.
 *
 * Messages in: { id, op, ... } with op one of open, query, exec, begin, end, dump, close; `tx` names the
 * transaction a begin opens (with its first statement) and a query, exec or end belongs to, `bg` marks a
 * statement or BEGIN of background work, `sync` a call whose caller waits on the shared flag. Messages out:
 * { id, ok: true, result } or { id, ok: false, error }. The shared flag holds the id of the last call answered
 * that way, or -1 once this thread has stopped.
 *
 * One call at a time reaches PGlite, as PGlite itself would run them: a statement outside a transaction waits
 * for the open transaction to end, and a transaction's statements run in the order they came; the calls
 * waiting are taken in turn, background work's after the requests' (Scheduler). Because of that
 * the parsers of a statement can be the instance's own while it runs: PGlite copies its whole parser table
 * (some 300 types) into a new object for every statement that brings parsers of its own, which cost about
 * 0.1 ms a statement, as much as a primary-key SELECT itself.
 *
 * A statement with values (`query`) is prepared once under a name and then run with one exchange of the wire
 * protocol (bind, execute, sync) instead of the six PGlite's `query` makes (parse, describe, bind, describe,
 * execute, sync) with a new plan every time: a primary-key SELECT takes 60 µs instead of 240 µs. Its values are
 * serialized by the parameter types PostgreSQL reported when it was prepared, with PGlite's own serializers, and
 * its rows parsed by the column types, with the same parsers, so the rows are the ones `query` would give.
 * Scripts (`exec`, migrations) and schema changes go PGlite's own way and forget the prepared statements, whose
 * column lists may have changed.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, protocol } from '@electric-sql/pglite';

/** @type {PGlite | undefined} */
let db;
/** The instance's parser table as it opened, and derived tables by the type ids left as text. */
let baseParsers;
const rawParsers = new Map();

/** How long background work waits at most while requests keep the database busy. */
const BACKGROUND_PATIENCE_MS = 50;
/**
 * After a background call that requests waited for, that many times its duration passes before background work
 * may go ahead of waiting requests again: it takes at most a quarter of the database's time from them.
 */
const BACKGROUND_SPACING = 3;

/**
 * Who holds the database next. Calls wait in the order they came, background work's (`bg`: the mail sender,
 * the report aggregates, ...) after the requests': a request's transaction never waits behind a queue of them.
 * Background work is not starved: once it has waited BACKGROUND_PATIENCE_MS, and its last turn taken from
 * waiting requests is far enough behind (BACKGROUND_SPACING), its next call goes first. A turn lasts until the
 * call's promise settles (a statement, or a transaction from its BEGIN to its end).
 */
class Scheduler {
  #busy = false;
  #requests = [];
  #background = [];
  /** when background work may go ahead of waiting requests again */
  #backgroundNotBefore = 0;
  /** a pick is due once the messages waiting are read */
  #picking = false;

  run(fn, background = false) {
    return new Promise((resolve, reject) => {
      (background ? this.#background : this.#requests).push({ fn, resolve, reject, background, at: performance.now() });
      this.#pickSoon();
    });
  }

  /**
   * The next turn is given once the messages that came meanwhile are read (this thread reads them one at a
   * time, with the turn of a statement they found the database free for run between two): a request's call
   * that came while a statement ran is among those it is chosen from.
   */
  #pickSoon() {
    if (this.#busy || this.#picking) return;
    this.#picking = true;
    setImmediate(() => {
      this.#picking = false;
      this.#next();
    });
  }

  #pick() {
    const waiting = this.#background[0];
    if (!waiting) return this.#requests.shift();
    const now = performance.now();
    const due = now - waiting.at >= BACKGROUND_PATIENCE_MS && now >= this.#backgroundNotBefore;
    return !this.#requests.length || due ? this.#background.shift() : this.#requests.shift();
  }

  #next() {
    if (this.#busy) return;
    const job = this.#pick();
    if (!job) return;
    this.#busy = true;
    const overtook = job.background && this.#requests.length > 0;
    const started = performance.now();
    Promise.resolve()
      .then(job.fn)
      .then(job.resolve, job.reject)
      .finally(() => {
        const ended = performance.now();
        if (overtook) this.#backgroundNotBefore = ended + BACKGROUND_SPACING * (ended - started);
        this.#busy = false;
        this.#pickSoon();
      });
  }
}

/** Held by each statement outside a transaction, and by a transaction from its BEGIN to its end. */
const database = new Scheduler();
/** Open transactions by id: PGlite's transaction, its own order of statements, how to end it and its outcome. */
const transactions = new Map();

function parsersFor(rawTypes) {
  if (!rawTypes?.length) return baseParsers;
  const key = rawTypes.join(',');
  let parsers = rawParsers.get(key);
  if (!parsers) {
    parsers = { ...baseParsers };
    for (const oid of rawTypes) parsers[oid] = (value) => value;
    rawParsers.set(key, parsers);
  }
  return parsers;
}

/** Runs one statement (query) or script (exec) on the database or a transaction. */
async function run(target, msg) {
  const parsers = parsersFor(msg.rawTypes);
  const schemaChange = SCHEMA_CHANGE.test(msg.text);
  if (msg.op === 'query' && !schemaChange && !MAINTENANCE.test(msg.text)) return await prepared(msg, parsers, msg.tx !== undefined);
  // read by PGlite when it parses this statement's rows; nothing else runs on it until then
  db.parsers = parsers;
  const options = msg.rowMode ? { rowMode: msg.rowMode } : undefined;
  try {
    return msg.op === 'query' ? await target.query(msg.text, msg.params, options) : await target.exec(msg.text, options);
  } finally {
    if (schemaChange || msg.op === 'exec') forgetPrepared();
  }
}

/**
 * Statements PGlite runs its own way, after which a prepared statement's columns may differ (schema changes),
 * or that the extended protocol does not suit (COPY).
 */
const SCHEMA_CHANGE = /^\s*(create|alter|drop|truncate|comment|grant|revoke|reindex|cluster|discard|deallocate|copy|do)\b/i;
/** Upkeep of tables (embedded-maintenance.ts), run as they are, which leaves every prepared statement as it was. */
const MAINTENANCE = /^\s*(vacuum|analyze)\b/i;

/** Most statements kept prepared (the least recently used beyond it are closed). */
const PREPARED_MAX = 300;
/** Texts run once, not (yet) kept prepared: the most remembered. */
const SEEN_MAX = 2000;
const seenOnce = new Set();
/** Prepared statements by text (least recently used first): name, parameter types, columns. */
const preparedByText = new Map();
/** Names to close with the next exchange (evicted), and the names' counter. */
let toClose = [];
let preparedCount = 0;

function forgetPrepared() {
  // a schema change may have changed their columns: they are forgotten here and left to the session (DDL is
  // rare: migrations at start and tests), never reused
  preparedByText.clear();
  seenOnce.clear();
  toClose = [];
}

const wire = protocol.serialize;

function concat(parts) {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** One exchange of the wire protocol: the messages PostgreSQL answered, its first error thrown. */
function exchange(parts, msg) {
  const data = db.execProtocolRawSync(concat(parts));
  const messages = [];
  new protocol.Parser().parse(data, (m) => messages.push(m));
  const error = messages.find((m) => m.name === 'error');
  if (error) {
    error.query = msg.text;
    error.params = msg.params;
    throw error;
  }
  return messages;
}

/**
 * The prepared statement for this text. A text seen for the first time is prepared unnamed (PostgreSQL keeps
 * one, replaced by the next): most of those are one-off statements (a multi-row insert of a given size, a
 * seed), whose plans would only take memory. Seen again, it is prepared under a name and kept.
 */
function preparedFor(msg) {
  let stmt = preparedByText.get(msg.text);
  if (stmt) {
    // most recently used last
    preparedByText.delete(msg.text);
    preparedByText.set(msg.text, stmt);
    return stmt;
  }
  const keep = seenOnce.has(msg.text);
  if (keep) seenOnce.delete(msg.text);
  else {
    seenOnce.add(msg.text);
    if (seenOnce.size > SEEN_MAX) seenOnce.delete(seenOnce.values().next().value);
  }
  const name = keep ? `pglite_thread_${++preparedCount}` : '';
  const closing = toClose.map((old) => wire.close({ type: 'S', name: old }));
  toClose = [];
  const messages = exchange(
    [...closing, wire.parse({ name, text: msg.text, types: [] }), wire.describe({ type: 'S', name }), wire.sync()],
    msg,
  );
  const params = messages.find((m) => m.name === 'parameterDescription');
  const columns = messages.find((m) => m.name === 'rowDescription');
  stmt = {
    name,
    paramTypes: params?.dataTypeIDs ?? [],
    fields: columns ? columns.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })) : [],
  };
  if (!keep) return stmt;
  preparedByText.set(msg.text, stmt);
  if (preparedByText.size > PREPARED_MAX) {
    const [oldest, evicted] = preparedByText.entries().next().value;
    preparedByText.delete(oldest);
    toClose.push(evicted.name);
  }
  return stmt;
}

function parseValue(value, typeId, parsers) {
  if (value === null) return null;
  const parse = parsers[typeId];
  return parse ? parse(value, typeId) : value;
}

/** A statement with values, run as PGlite's `query` would run it, on its prepared statement. */
async function prepared(msg, parsers, inTransaction) {
  const stmt = preparedFor(msg);
  const values = (msg.params ?? []).map((value, i) => {
    if (value === null || value === undefined) return null;
    const serialize = db.serializers[stmt.paramTypes[i]];
    return serialize ? serialize(value) : value.toString();
  });
  let messages;
  try {
    messages = exchange([wire.bind({ statement: stmt.name, values }), wire.execute({}), wire.sync()], msg);
  } catch (err) {
    // the plan's columns changed under it (a schema change made elsewhere): prepared again next time
    if (err?.code === '0A000') preparedByText.delete(msg.text);
    throw err;
  }
  const { fields } = stmt;
  const rows = [];
  let affectedRows = 0;
  let command;
  let rowCount;
  for (const m of messages) {
    if (m.name === 'dataRow') {
      if (msg.rowMode === 'array') rows.push(m.fields.map((v, i) => parseValue(v, fields[i].dataTypeID, parsers)));
      else {
        const row = {};
        for (let i = 0; i < fields.length; i++) row[fields[i].name] = parseValue(m.fields[i], fields[i].dataTypeID, parsers);
        rows.push(row);
      }
    } else if (m.name === 'commandComplete') {
      const words = m.text.split(' ');
      command = words[0];
      const n = parseInt(words[words.length - 1], 10);
      if (['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE'].includes(command)) affectedRows += n;
      if (!Number.isNaN(n)) rowCount = n;
    }
  }
  if (!inTransaction) await db.syncToFs();
  const result = { rows, fields, command, affectedRows };
  if (rowCount !== undefined) result.rowCount = rowCount;
  return result;
}

/** An error as plain data: its message, name and PostgreSQL's fields (code, constraint, detail, ...). */
function errorData(err) {
  if (!(err instanceof Error)) return { message: String(err), name: 'Error' };
  const data = { message: err.message, name: err.name, stack: err.stack };
  for (const [k, v] of Object.entries(err)) {
    if (v === undefined || typeof v === 'function' || k === 'queryOptions') continue;
    data[k] = v;
  }
  return data;
}

/**
 * Answers a call: as a message, or, for a call inside a transaction (whose caller waits on the shared flag),
 * on the port it reads synchronously, then stores the call's id in the flag and wakes it.
 */
function reply(id, ok, result, sync = false) {
  const answer = ok ? { id, ok, result } : { id, ok, error: errorData(result) };
  if (!sync) return parentPort.postMessage(answer);
  workerData.syncPort.postMessage(answer);
  Atomics.store(workerData.flag, 0, id & 0x7fffffff);
  Atomics.notify(workerData.flag, 0);
}

/** The shared flag's value once this thread has stopped. */
const STOPPED = -1;

const ROLLBACK = Symbol('rollback');

/**
 * Opens transaction `msg.tx`, which holds the database until an `end` message for it, and runs its first
 * statement (`msg.first`) in it: BEGIN and that statement are one call. Answers { result } with the
 * statement's rows, or { error } when the statement failed (the transaction is open all the same, to be rolled
 * back); an error answer means BEGIN itself failed.
 */
function begin(msg) {
  let finish;
  const ended = new Promise((resolve) => (finish = resolve));
  let outcome;
  const closed = new Promise((resolve) => (outcome = resolve));
  let opened = false;
  void database.run(async () => {
    try {
      await db.transaction(async (tx) => {
        opened = true;
        const open = { tx, chain: run(tx, msg.first), finish, closed };
        transactions.set(msg.tx, open);
        open.chain.then(
          (result) => reply(msg.id, true, { result }),
          (err) => reply(msg.id, true, { error: errorData(err) }),
        );
        open.chain = open.chain.catch(() => undefined);
        const how = await ended;
        await open.chain;
        if (how === 'rollback') throw ROLLBACK;
      });
      outcome({ ok: true });
    } catch (err) {
      if (!opened) reply(msg.id, false, err);
      outcome(err === ROLLBACK ? { ok: true } : { ok: false, err });
    } finally {
      transactions.delete(msg.tx);
    }
  }, msg.bg);
}

function openTransaction(id) {
  const open = transactions.get(id);
  if (!open) throw new Error(`transaction ${id} is not open`);
  return open;
}

async function handle(msg) {
  switch (msg.op) {
    case 'open': {
      const loadDataDir = msg.loadDataDir ? new Blob([msg.loadDataDir]) : undefined;
      if (msg.dataDir && !loadDataDir && !fs.existsSync(path.join(msg.dataDir, 'PG_VERSION'))) initDataDir(msg.dataDir, msg.postgresqlconf);
      db = new PGlite({ dataDir: msg.dataDir, loadDataDir, postgresqlconf: msg.postgresqlconf });
      await db.waitReady;
      // every statement is kept prepared with one plan for all its values, as on a PostgreSQL server (see
      // platform/db.ts): planned afresh for each execution instead, a placement's order insert spent half its
      // time planning
      await db.exec('SET plan_cache_mode = force_generic_plan');
      baseParsers = db.parsers;
      return null;
    }
    case 'query':
    case 'exec': {
      if (msg.tx === undefined) return await database.run(() => run(db, msg), msg.bg);
      const open = openTransaction(msg.tx);
      const result = open.chain.then(() => run(open.tx, msg));
      open.chain = result.catch(() => undefined);
      return await result;
    }
    case 'begin':
      begin(msg);
      return undefined;
    case 'end': {
      const open = openTransaction(msg.tx);
      open.finish(msg.commit ? 'commit' : 'rollback');
      const how = await open.closed;
      if (!how.ok) throw how.err;
      return null;
    }
    case 'dump':
      return await database.run(async () => {
        db.parsers = baseParsers;
        const file = await db.dumpDataDir(msg.compression);
        return await file.arrayBuffer();
      });
    case 'close':
      return await database.run(async () => {
        await db?.close();
        return null;
      });
    default:
      throw new Error(`unknown operation ${msg.op}`);
  }
}

/**
 * A new data directory is made (initdb) by a process of its own, this script run with `--init <dir> [conf...]`:
 * making one leaves some 300 MB of buffers that a thread's memory allocator keeps for the life of the
 * process, where a process returns them when it ends (a first start would otherwise idle at 900 MB, not 500).
 */
function initDataDir(dataDir, postgresqlconf = []) {
  execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--init', dataDir, ...postgresqlconf], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

if (parentPort) {
  // a caller blocked waiting for an answer (see reply) cannot see this thread's 'exit' event: the flag tells it
  process.on('exit', () => {
    Atomics.store(workerData.flag, 0, STOPPED);
    Atomics.notify(workerData.flag, 0);
  });
  parentPort.on('message', (msg) => {
    handle(msg).then(
      (result) => {
        if (result !== undefined) reply(msg.id, true, result, msg.sync);
      },
      (err) => reply(msg.id, false, err, msg.sync),
    );
  });
} else if (process.argv[2] === '--init') {
  const made = new PGlite({ dataDir: process.argv[3], postgresqlconf: process.argv.slice(4) });
  await made.waitReady;
  await made.close();
}
