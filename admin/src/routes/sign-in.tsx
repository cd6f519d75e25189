import { createFileRoute } from '@tanstack/react-router';
import { SignIn } from '../screens/SignIn';

export const Route = createFileRoute('/sign-in')({
  validateSearch: (s: Record<string, unknown>): { redirect?: string } => (typeof s.redirect === 'string' ? { redirect: s.redirect } : {}),
  component: SignIn,
});
