/** Between the API users and the API roles: two screens of one menu entry. */
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../auth/session';

export function ApiTabs() {
  const { t } = useTranslation();
  const session = useSession();
  return (
    <nav className="sys-tabs" aria-label={t('system.apiUsers.sections')}>
      <Link to="/api-users" activeOptions={{ exact: true }}>
        {t('system.apiUsers.title')}
      </Link>
      {session.can('admin-roles') && (
        <Link to="/api-users/roles" activeOptions={{ exact: true }}>
          {t('system.apiRoles.title')}
        </Link>
      )}
    </nav>
  );
}
