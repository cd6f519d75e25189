/**
 * Captcha verification through a registry of verifiers keyed by provider id. Two are built in:
 * `turnstile` (Cloudflare) and `recaptcha_v3` (Google, with a minimum score); an installed module may
 * register its own with `registerCaptchaVerifier`. The HTTP call goes through an injectable fetch so that
 * tests never reach the network.
 *
 * A verifier answers true (passed) or false (refused); when the provider cannot be reached it throws
 * `captchaUnavailable()` (503).
 */
import { AppError } from './errors.js';
import type { Ctx } from './context.js';

export type CaptchaFetch = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string; signal?: AbortSignal },
) => Promise<{
  ok: boolean;
  status: number;
  json(): Promise<unknown>;
}>;

export interface CaptchaCheck {
  ctx: Ctx;
  token: string;
  ip: string;
  /** the provider's secret key (store config of the caller) */
  secretKey: string;
  /** lowest accepted score of score-based providers (recaptcha_v3) */
  minScore: number;
  fetch: CaptchaFetch;
}

export type CaptchaVerifier = (check: CaptchaCheck) => Promise<boolean>;

export interface CaptchaOptions {
  secretKey?: string;
  minScore?: number;
}

export const TURNSTILE_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';
export const RECAPTCHA_URL = 'https://www.google.com/recaptcha/api/siteverify';
const TIMEOUT_MS = 10_000;

export const captchaUnavailable = () =>
  new AppError('service_unavailable', 'Captcha verification is unavailable. Please try again later.', { reason: 'CAPTCHA_UNAVAILABLE' });

const verifiers = new Map<string, CaptchaVerifier>();
const defaultFetch: CaptchaFetch = (url, init) => fetch(url, init);
let currentFetch: CaptchaFetch = defaultFetch;

/** Registers (or replaces) the verifier of a provider id; `none` is reserved. */
export function registerCaptchaVerifier(id: string, fn: CaptchaVerifier): void {
  if (id === 'none') throw new Error('the captcha provider id "none" is reserved');
  verifiers.set(id, fn);
}

export function unregisterCaptchaVerifier(id: string): void {
  if (id === 'turnstile' || id === 'recaptcha_v3') return;
  verifiers.delete(id);
}

export function captchaProviders(): string[] {
  return ['none', ...verifiers.keys()];
}

/** Replaces the HTTP client of the built-in verifiers (tests); undefined restores the global fetch. */
export function setCaptchaFetch(fn: CaptchaFetch | undefined): void {
  currentFetch = fn ?? defaultFetch;
}

/**
 * Verifies a token with the given provider. `none` passes without a token; otherwise a missing token or a
 * refusal answers false. An unknown provider or an unreachable verifier throws 503.
 */
export async function verifyCaptcha(
  ctx: Ctx,
  provider: string,
  token: string | undefined,
  ip: string,
  opts: CaptchaOptions = {},
): Promise<boolean> {
  if (!provider || provider === 'none') return true;
  const verifier = verifiers.get(provider);
  if (!verifier) {
    ctx.log.warn({ provider }, 'no captcha verifier registered for the configured provider');
    throw captchaUnavailable();
  }
  if (typeof token !== 'string' || !token.trim()) return false;
  try {
    return (
      (await verifier({
        ctx,
        token: token.trim(),
        ip,
        secretKey: opts.secretKey ?? '',
        minScore: opts.minScore ?? 0.5,
        fetch: currentFetch,
      })) === true
    );
  } catch (err) {
    if (err instanceof AppError) throw err;
    ctx.log.warn({ err, provider }, 'captcha verification failed');
    throw captchaUnavailable();
  }
}

/** POSTs the siteverify form (secret, response, remoteip) and returns the JSON answer; 503 when unreachable. */
async function siteverify(check: CaptchaCheck, url: string): Promise<Record<string, unknown>> {
  const form = new URLSearchParams({ secret: check.secretKey, response: check.token });
  if (check.ip) form.set('remoteip', check.ip);
  let res: Awaited<ReturnType<CaptchaFetch>>;
  try {
    res = await check.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    throw captchaUnavailable();
  }
  if (!res.ok) throw captchaUnavailable();
  const body = await res.json().catch(() => undefined);
  if (!body || typeof body !== 'object') throw captchaUnavailable();
  return body as Record<string, unknown>;
}

registerCaptchaVerifier('turnstile', async (check) => (await siteverify(check, TURNSTILE_URL)).success === true);

registerCaptchaVerifier('recaptcha_v3', async (check) => {
  const body = await siteverify(check, RECAPTCHA_URL);
  if (body.success !== true) return false;
  const score = typeof body.score === 'number' ? body.score : 0;
  return score >= check.minScore;
});
