/**
 * The frame of every signed-in screen: a skip link, the menu (only what the role may read), the user's menu and
 * the screen. Signed out, it sends to the sign-in and back here afterwards.
 */
import { useEffect, useRef, useState } from 'react';
import { Link, Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useTranslation } from 'react-i18next';
import { useSession } from '../auth/session';
import { Spinner } from '../components/ui';
import { NAV } from './nav';

export function Shell() {
  const { t } = useTranslation();
  const session = useSession();
  const href = useRouterState({ select: (s) => s.location.href });
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  const signedOut = session.state === 'signedOut';
  // the address asked for is kept once, when the session is found missing (the navigation changes it)
  const wanted = useRef(href);
  wanted.current = signedOut ? wanted.current : href;
  useEffect(() => {
    if (!signedOut) return;
    const from = wanted.current;
    void navigate({ to: '/sign-in', search: from === '/' || from.startsWith('/sign-in') ? {} : { redirect: from }, replace: true });
  }, [signedOut, navigate]);
  if (session.state !== 'signedIn') return <Spinner />;
  const user = session.user!;
  const groups = NAV.map((g) => ({ ...g, items: g.items.filter((i) => session.can(i.resource, 'read')) })).filter((g) => g.items.length);
  return (
    <div className={`shell${menuOpen ? ' menu-open' : ''}`}>
      <a className="skip-link" href="#main">
        {t('shell.skipToContent')}
      </a>
      <header className="topbar">
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="main-nav"
          onClick={() => setMenuOpen((o) => !o)}
        >
          {t('shell.menu')}
        </button>
        <Link to="/" className="brand">
          {t('shell.title')}
        </Link>
        <DropdownMenu.Root>
          <DropdownMenu.Trigger className="user-menu">
            <span className="sr-only">{t('shell.userMenu')} </span>
            {user.firstName || user.username}
          </DropdownMenu.Trigger>
          <DropdownMenu.Portal>
            <DropdownMenu.Content className="menu" align="end">
              <DropdownMenu.Item asChild>
                <Link to={'/account' as never}>{t('shell.myAccount')}</Link>
              </DropdownMenu.Item>
              <DropdownMenu.Item onSelect={() => void session.signOut()}>{t('shell.signOut')}</DropdownMenu.Item>
            </DropdownMenu.Content>
          </DropdownMenu.Portal>
        </DropdownMenu.Root>
      </header>
      <nav id="main-nav" className="sidenav" aria-label={t('shell.mainMenu')}>
        {groups.map((g) => (
          <div key={g.label} className="nav-group">
            <h2>{t(g.label)}</h2>
            <ul>
              {g.items.map((i) => (
                <li key={i.to}>
                  <Link to={i.to as never} activeOptions={{ exact: i.to === '/' }} onClick={() => setMenuOpen(false)}>
                    {t(i.label)}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
