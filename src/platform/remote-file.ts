/**
 * A guarded fetch of a remote file (product images given by URL): http and https only, size and time limits,
 * private and loopback addresses refused on every address connected to.
 */
import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import { AppError, badRequest } from './errors.js';
import { isPublicAddress, isRefusedHost, publicOnlyLookup } from './public-address.js';

/** Any address but a public one (see public-address.ts, which webhook deliveries use too). */
export function isPrivateAddress(address: string): boolean {
  return !isPublicAddress(address);
}

export interface FetchOptions {
  maxBytes: number;
  timeoutMs: number;
  allowPrivate: boolean;
  /** the field named in error messages */
  field: string;
  maxRedirects?: number;
}

export interface FetchedFile {
  data: Buffer;
  contentType?: string;
  /** the last URL fetched (after redirects) */
  url: string;
}

class RemoteRefusal extends Error {
  constructor(readonly appError: AppError) {
    super(appError.message);
  }
}

/** A DNS lookup that refuses private addresses, so that the checked address is the one connected to. */
function guardedLookup(field: string): net.LookupFunction {
  return publicOnlyLookup(() => new RemoteRefusal(notAllowed(field)));
}

function notAllowed(field: string): AppError {
  return badRequest(`${field} points to a private or loopback address`, { reason: 'URL_NOT_ALLOWED', details: { field } });
}

function checkUrl(raw: string, field: string, allowPrivate: boolean): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw badRequest(`${field} is not a valid URL`, { reason: 'INVALID_URL', details: { field } });
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw badRequest(`${field} must be an http or https URL`, { reason: 'INVALID_URL', details: { field } });
  }
  if (u.username || u.password) throw badRequest(`${field} must not carry credentials`, { reason: 'INVALID_URL', details: { field } });
  if (!allowPrivate && isRefusedHost(u.hostname)) throw notAllowed(field);
  return u;
}

function tooLarge(field: string, maxBytes: number): AppError {
  return new AppError('payload_too_large', `${field}: the file is larger than ${maxBytes} bytes`, {
    reason: 'FILE_TOO_LARGE',
    details: { field, maxBytes },
  });
}

function fetchOnce(u: URL, opts: FetchOptions, deadline: number): Promise<{ redirect?: string; file?: FetchedFile }> {
  return new Promise((resolve, reject) => {
    const remaining = Math.max(1, deadline - Date.now());
    const mod = u.protocol === 'https:' ? https : http;
    const fail = (err: unknown) => {
      if (err instanceof RemoteRefusal) return reject(err.appError);
      if (err instanceof AppError) return reject(err);
      const msg = err instanceof Error ? err.message : String(err);
      reject(badRequest(`${opts.field} could not be fetched: ${msg}`, { reason: 'URL_FETCH_FAILED', details: { field: opts.field } }));
    };
    const req = mod.get(
      u,
      {
        lookup: opts.allowPrivate ? undefined : guardedLookup(opts.field),
        timeout: remaining,
        headers: { accept: 'image/*,*/*;q=0.5', 'user-agent': 'commerce-api media fetcher' },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          resolve({ redirect: res.headers.location });
          return;
        }
        if (status < 200 || status >= 300) {
          res.resume();
          fail(new Error(`HTTP ${status}`));
          return;
        }
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > opts.maxBytes) {
          req.destroy();
          fail(tooLarge(opts.field, opts.maxBytes));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > opts.maxBytes) {
            req.destroy();
            fail(tooLarge(opts.field, opts.maxBytes));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          const ct = res.headers['content-type'];
          resolve({ file: { data: Buffer.concat(chunks), contentType: typeof ct === 'string' ? ct : undefined, url: u.toString() } });
        });
        res.on('error', fail);
        res.on('close', () => {
          if (!res.complete) fail(new Error('connection closed'));
        });
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error('timed out'));
    }, remaining);
    timer.unref();
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', fail);
    req.on('close', () => clearTimeout(timer));
  });
}

/**
 * Fetches a file over http or https. Refused (400): other schemes, credentials in the URL, private and
 * loopback addresses (unless allowed; checked on every address connected to, redirects included), errors and
 * non-2xx answers, more than `maxRedirects` redirects, the time limit. Larger than `maxBytes`: 413.
 */
export async function fetchRemoteFile(rawUrl: string, opts: FetchOptions): Promise<FetchedFile> {
  const deadline = Date.now() + opts.timeoutMs;
  let u = checkUrl(rawUrl, opts.field, opts.allowPrivate);
  for (let hop = 0; ; hop++) {
    const res = await fetchOnce(u, opts, deadline);
    if (res.file) return res.file;
    if (hop >= (opts.maxRedirects ?? 3)) {
      throw badRequest(`${opts.field} could not be fetched: too many redirects`, {
        reason: 'URL_FETCH_FAILED',
        details: { field: opts.field },
      });
    }
    let next: string;
    try {
      next = new URL(res.redirect!, u).toString();
    } catch {
      throw badRequest(`${opts.field} could not be fetched: invalid redirect`, {
        reason: 'URL_FETCH_FAILED',
        details: { field: opts.field },
      });
    }
    u = checkUrl(next, opts.field, opts.allowPrivate);
  }
}
