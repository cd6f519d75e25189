/** Staff (back-office) users: create one, set a new password, disable one. */
import crypto from 'node:crypto';
import * as staff from '../modules/auth/staff-service.js';
import { JSON_OPT, out, print, required, UsageError, type Command } from './command.js';

/** 16 characters of letters and digits, with at least one of each (the staff password rule). */
function generatePassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  for (;;) {
    const p = [...crypto.randomBytes(16)].map((b) => alphabet[b % alphabet.length]).join('');
    if (/[A-Za-z]/.test(p) && /\d/.test(p)) return p;
  }
}

/** --password or --generate (one of them; `optional`: neither means generate). */
function passwordOf(opts: Record<string, string | boolean | undefined>, optional: boolean): { password: string; generated: boolean } {
  const given = opts.password as string | undefined;
  if (given !== undefined && opts.generate) throw new UsageError('give --password or --generate, not both');
  if (given !== undefined) return { password: given, generated: false };
  if (!opts.generate && !optional) throw new UsageError('--password or --generate is required');
  return { password: generatePassword(), generated: true };
}

/** user:create, user:list, user:reset-password and user:disable. */
export const USER_COMMANDS: Record<string, Command> = {
  'user:list': {
    usage: 'user:list [--json]',
    summary: 'list back-office (staff) users',
    options: JSON_OPT,
    async run(env, opts) {
      const { items } = await staff.listAdminUsers(env.ctx(), {}, { page: 1, size: 1000, offset: 0 });
      print(items, ['id', 'username', 'email', 'role', 'isActive', 'twofaEnabled', 'locked', 'lastLoginAt'], opts.json);
    },
  },
  'user:create': {
    usage:
      'user:create <username> --email <email> (--password <password> | --generate) --role <name> [--first-name <name>] [--last-name <name>]',
    summary: 'create a back-office (staff) user with an admin role; --generate prints a new password once',
    positionals: 1,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      generate: { type: 'boolean' },
      role: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
    },
    async run(env, opts, [username]) {
      const email = required(opts, 'email');
      const role = required(opts, 'role');
      const { password, generated } = passwordOf(opts, false);
      const ctx = env.ctx();
      const user = await staff.createAdminUser(ctx, {
        username,
        email,
        password,
        roleId: await staff.adminRoleIdByName(ctx.db, role),
        firstName: opts['first-name'] as string | undefined,
        lastName: opts['last-name'] as string | undefined,
      });
      out(`Admin user created: ${user.username} (id ${user.id}, role ${user.role})`);
      if (generated) out(`Password (shown once): ${password}`);
    },
  },
  'user:reset-password': {
    usage: 'user:reset-password <username> [--password <password> | --generate]',
    summary: "set a staff user's password (generated and printed without --password); unlocks the account and ends its sessions",
    positionals: 1,
    options: { password: { type: 'string' }, generate: { type: 'boolean' } },
    async run(env, opts, [username]) {
      const { password, generated } = passwordOf(opts, true);
      await staff.setStaffPassword(env.ctx(), username, password);
      out(`Password of ${username} set; its sessions have ended.`);
      if (generated) out(`Password (shown once): ${password}`);
    },
  },
  'user:disable': {
    usage: 'user:disable <username>',
    summary: 'disable a staff user: it cannot sign in and its tokens and sessions end at once',
    positionals: 1,
    async run(env, _opts, [username]) {
      await staff.setStaffActive(env.ctx(), username, false);
      out(`Admin user ${username} disabled.`);
    },
  },
};
