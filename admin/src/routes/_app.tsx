import { createFileRoute } from '@tanstack/react-router';
import { Shell } from '../layout/Shell';

/** Every screen but the sign-in pages: inside the shell, for a signed-in staff user only. */
export const Route = createFileRoute('/_app')({
  component: Shell,
});
