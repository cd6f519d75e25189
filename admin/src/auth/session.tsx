/**
 * The signed-in staff user: the session is opened by the sign-in screen, restored on load from the session
 * cookie, and ended by signing out (or by the API refusing the token). `can()` tells whether the user's role
 * allows an operation, as the API decides it: screens and actions a role does not allow are not shown.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import {
  API,
  acceptToken,
  api,
  csrfToken,
  forgetToken,
  onSessionLost,
  refresh,
  toApiError,
  unwrap,
  type Answer,
  type TokenAnswer,
} from '../api/client';
import { setLanguage } from '../i18n';

export type StaffUser = Answer<'/api/rest/v2/admin-users/me', 'get'>;
export type Op = 'read' | 'write' | 'create' | 'delete';

/** `write` covers create; `delete` is granted by itself or `all` (the API's rule). */
export function allows(permissions: readonly string[], resource: string, op: Op): boolean {
  return permissions.some(
    (p) => p === 'all' || p === `${resource}/all` || p === `${resource}/${op}` || (op === 'create' && p === `${resource}/write`),
  );
}

export interface SignInInput {
  username: string;
  password: string;
  twofaCode?: string;
  passkey?: unknown;
}

interface Session {
  state: 'loading' | 'signedOut' | 'signedIn';
  user?: StaffUser;
  signIn(input: SignInInput): Promise<void>;
  signOut(): Promise<void>;
  reload(): Promise<void>;
  can(resource: string, op?: Op): boolean;
}

const SessionContext = createContext<Session | undefined>(undefined);

async function loadMe(): Promise<StaffUser> {
  return unwrap(api.GET('/api/rest/v2/admin-users/me'));
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<Session['state']>('loading');
  const [user, setUser] = useState<StaffUser>();

  const enter = useCallback(async () => {
    const me = await loadMe();
    setLanguage(me.locale);
    setUser(me);
    setState('signedIn');
  }, []);

  useEffect(() => {
    let live = true;
    (async () => {
      if (await refresh()) {
        try {
          await enter();
          return;
        } catch {
          forgetToken();
        }
      }
      if (live) setState('signedOut');
    })();
    const off = onSessionLost(() => {
      setUser(undefined);
      setState('signedOut');
    });
    return () => {
      live = false;
      off();
    };
  }, [enter]);

  const value = useMemo<Session>(
    () => ({
      state,
      user,
      async signIn(input) {
        const res = await fetch(`${API}/auth/admin/login`, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            username: input.username,
            password: input.password,
            ...(input.twofaCode ? { twofa_code: input.twofaCode } : {}),
            ...(input.passkey ? { passkey: input.passkey } : {}),
          }),
        });
        const body = await res.json().catch(() => ({}));
        if (!res.ok) throw toApiError(res.status, body);
        acceptToken(body as TokenAnswer);
        await enter();
      },
      async signOut() {
        await fetch(`${API}/auth/admin/logout`, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'x-csrf-token': csrfToken(), 'content-type': 'application/json' },
          body: '{}',
        }).catch(() => undefined);
        forgetToken();
        setUser(undefined);
        setState('signedOut');
      },
      reload: enter,
      can: (resource, op = 'read') => !!user && allows(user.permissions, resource, op),
    }),
    [state, user, enter],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside SessionProvider');
  return s;
}
