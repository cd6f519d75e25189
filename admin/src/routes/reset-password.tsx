import { createFileRoute } from '@tanstack/react-router';
import { ResetPassword } from '../screens/ResetPassword';

export const Route = createFileRoute('/reset-password')({
  validateSearch: (s: Record<string, unknown>): { token?: string } => (typeof s.token === 'string' ? { token: s.token } : {}),
  component: ResetPassword,
});
