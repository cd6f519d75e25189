/**
 * Back-office staff: Magento's admin roles (admin_role `G` rows, their admin_rule ACL as our permissions, see
 * staff-acl.ts), admin users (the `U` row under a role names a user's role) and, from Maho, their second factors.
 *
 * - The password hash is kept as the source has it (md5 / sha256 / sha512 with salt, bcrypt, argon2): it is
 *   verified at sign-in as Magento did and replaced by scrypt there. A hash in no known format is not kept (the
 *   user resets the password). A user Maho let sign in by passkey only keeps it only when the passkey is imported
 *   too, which the sign-in here then asks for as the second factor.
 * - 2FA: Maho keeps the TOTP secret encrypted with the shop's key; with `--crypt-key` it is opened and sealed
 *   again with this server's key. A user with 2FA on whose secret cannot be read (no key, or damaged) arrives with
 *   2FA still required and no secret: the sign-in refuses every code, so the password alone never lets them in;
 *   an administrator resets their 2FA and they set it up again. The report lists them. A key that opens none of
 *   the source's secrets is refused before anything is written.
 * - Passkeys (Maho keeps one per user: the credential id, and the public key as PEM) become passkeys here.
 *
 * As with API accounts, a role or user of ours that no import wrote is never overwritten: the source's one of the
 * same name arrives under a new name, and a user whose e-mail belongs to one of ours is skipped. A re-import
 * updates what changed in the source; what changed here since (a password re-hashed at sign-in, 2FA set up again)
 * is kept while the source's row has not changed after it.
 */
import { sql } from 'drizzle-orm';
import { isLegacyHash } from '../../platform/auth/legacy-hashes.js';
import { sealTotpSecret } from '../../platform/auth/totp.js';
import { rows } from '../../platform/db.js';
import { adminPasskeys, adminRoles, adminUsers } from '../../modules/auth/tables.js';
import { count, intArray, mappedIds, recordIds, upsert, type EntityImporter, type ImportContext } from '../context.js';
import { ImportRefused } from '../refused.js';
import { bool, date, int, text, trimmed, type SourceRow } from '../source.js';
import { placeByName } from './api.js';
import { staffPermissionsOf } from './staff-acl.js';
import { mahoPasskey, mahoTotpSecret, openMahoEncrypted } from './staff-credentials.js';

const LOCALE = /^[a-z]{2,3}_[A-Z]{2}$/;

const has = (ctx: ImportContext, column: string) => ctx.source.hasColumn('admin_user', column);

export const staffRolesImporter: EntityImporter = {
  name: 'staff roles',
  group: 'staff',
  count: (ctx) => (ctx.source.hasTable('admin_role') ? ctx.source.count('admin_role', "role_type = 'G'") : Promise.resolve(0)),
  async run(ctx, stats, tick) {
    if (!ctx.source.hasTable('admin_role')) return;
    const roles = await ctx.source.query("SELECT role_id, role_name FROM admin_role WHERE role_type = 'G' ORDER BY role_id");
    const rules = ctx.source.hasTable('admin_rule')
      ? await ctx.source.query('SELECT role_id, resource_id, permission FROM admin_rule WHERE resource_id IS NOT NULL ORDER BY rule_id')
      : [];
    stats.found = roles.length;
    const places = await placeByName(
      ctx,
      'staff roles',
      'admin_roles',
      'name',
      roles.map((r) => ({ sourceId: r.role_id, name: text(r.role_name) ?? `role-${r.role_id}` })),
    );
    const values = roles.map((r, i) => {
      const acl = staffPermissionsOf(
        rules
          .filter((x) => Number(x.role_id) === Number(r.role_id))
          .map((x) => ({ resource: String(x.resource_id), allow: String(x.permission) === 'allow' })),
      );
      const say = (message: string) => ctx.report.note(stats, r.role_id, message);
      if (places[i].renamedFrom)
        say(
          `"${places[i].renamedFrom}" is already the name of another role here, which keeps its permissions: this one is imported as "${places[i].name}"`,
        );
      if (!acl.permissions.length) say('none of its Magento resources has a counterpart here: the role grants nothing');
      if (acl.configSections)
        say(
          `it may edit ${acl.configSections.allowed} of ${acl.configSections.of} configuration sections; configuration permissions here are not per section, so it gets none`,
        );
      if (acl.unmapped.length) say(`allowed in Magento with no counterpart here: ${acl.unmapped.join(', ')}`);
      return { ...(places[i].id !== undefined ? { id: places[i].id } : {}), name: places[i].name, permissions: acl.permissions };
    });
    count(
      stats,
      await upsert(
        ctx.db,
        adminRoles,
        values.filter((v) => v.id !== undefined),
        [adminRoles.id],
      ),
    );
    count(
      stats,
      await upsert(
        ctx.db,
        adminRoles,
        values.filter((v) => v.id === undefined),
        [adminRoles.name],
      ),
    );
    const ids = new Map((await ctx.db.select({ id: adminRoles.id, name: adminRoles.name }).from(adminRoles)).map((r) => [r.name, r.id]));
    await recordIds(
      ctx.db,
      'staff roles',
      roles.map((r, i) => [r.role_id, ids.get(values[i].name)!]),
    );
    tick(roles.length);
  },
};

/** What one source user's 2FA becomes here, and why when its secret could not be read. */
function twofaOf(ctx: ImportContext, u: SourceRow): { enabled: boolean; secret: string | null; problem?: string } {
  if (!has(ctx, 'twofa_enabled') || !bool(u.twofa_enabled)) return { enabled: false, secret: null };
  const stored = trimmed(u.twofa_secret);
  const base32 = stored && ctx.cryptKey ? mahoTotpSecret(ctx.cryptKey, stored) : undefined;
  if (base32 && ctx.config) return { enabled: true, secret: sealTotpSecret(ctx.config, base32) };
  const why = !stored
    ? 'its secret is empty in the source'
    : !ctx.cryptKey
      ? 'its secret cannot be read without --crypt-key'
      : '--crypt-key does not open its secret (damaged, or encrypted before Maho used libsodium)';
  return { enabled: true, secret: null, problem: why };
}

export const staffUsersImporter: EntityImporter = {
  name: 'staff users',
  group: 'staff',
  count: (ctx) => (ctx.source.hasTable('admin_user') ? ctx.source.count('admin_user') : Promise.resolve(0)),
  async check(ctx) {
    if (!ctx.cryptKey || !ctx.source.hasTable('admin_user') || !has(ctx, 'twofa_secret')) return;
    const secrets = await ctx.source.query<{ s: string }>(
      "SELECT twofa_secret AS s FROM admin_user WHERE twofa_secret IS NOT NULL AND twofa_secret <> ''",
    );
    if (secrets.length && !secrets.some((r) => openMahoEncrypted(ctx.cryptKey!, String(r.s)) !== undefined))
      throw new ImportRefused(
        `--crypt-key opens none of the ${secrets.length} staff 2FA secrets of the source: it is not this shop's key (app/etc/local.xml <crypt><key>); nothing was imported`,
      );
  },
  async run(ctx, stats, tick) {
    if (!ctx.source.hasTable('admin_user')) return;
    const users = await ctx.source.query('SELECT * FROM admin_user ORDER BY user_id');
    const memberships = ctx.source.hasTable('admin_role')
      ? await ctx.source.query("SELECT user_id, parent_id FROM admin_role WHERE role_type = 'U' ORDER BY role_id")
      : [];
    const roleIds = await mappedIds(ctx.db, 'staff roles', [...new Set(memberships.map((m) => m.parent_id))]);
    const roleOf = new Map<number, number | undefined>();
    for (const m of memberships) if (!roleOf.get(Number(m.user_id))) roleOf.set(Number(m.user_id), roleIds.get(String(m.parent_id)));
    stats.found = users.length;
    // an e-mail belongs to one staff user: ours (not imported) keep theirs
    const earlier = await mappedIds(
      ctx.db,
      'staff users',
      users.map((u) => u.user_id),
    );
    const owners = new Map(
      (await rows<{ id: number; email: string }>(ctx.db, sql`SELECT id, lower(email) AS email FROM admin_users`)).map((r) => [
        r.email,
        r.id,
      ]),
    );
    const claimed = new Set<string>();
    const kept: { source: SourceRow; roleId: number; email: string; username: string }[] = [];
    for (const u of users) {
      const id = Number(u.user_id);
      const roleId = roleOf.get(id);
      const email = trimmed(u.email);
      const username = trimmed(u.username);
      const owner = email ? owners.get(email.toLowerCase()) : undefined;
      if (!username) ctx.report.skip(stats, id, 'no username');
      else if (!roleId) ctx.report.skip(stats, id, 'no role (Magento refuses its sign-in too)');
      else if (!email) ctx.report.skip(stats, id, 'no e-mail');
      else if ((owner !== undefined && owner !== earlier.get(String(id))) || claimed.has(email.toLowerCase()))
        ctx.report.skip(stats, id, 'its e-mail belongs to another staff user here, who is left as it is');
      else {
        claimed.add(email.toLowerCase());
        kept.push({ source: u, roleId, email, username });
      }
    }
    const places = await placeByName(
      ctx,
      'staff users',
      'admin_users',
      'username',
      kept.map((k) => ({ sourceId: k.source.user_id, name: k.username })),
    );
    const values = kept.map(({ source: u, roleId, email }, i) => {
      const say = (message: string) => ctx.report.note(stats, u.user_id, message);
      if (places[i].renamedFrom)
        say(
          `"${places[i].renamedFrom}" is already the name of another staff user here, who is left as it is: this one signs in as "${places[i].name}"`,
        );
      const hash = trimmed(u.password);
      const passwordEnabled = !has(ctx, 'password_enabled') || bool(u.password_enabled);
      const passkey =
        has(ctx, 'passkey_public_key') && trimmed(u.passkey_credential_id_hash) && trimmed(u.passkey_public_key)
          ? mahoPasskey(String(u.passkey_credential_id_hash), String(u.passkey_public_key))
          : undefined;
      // a user Maho let in by passkey only keeps the password only where the passkey comes along: here it is the
      // second factor the password then needs, never a way around it
      let passwordHash: string | null = null;
      if (!passwordEnabled && !passkey)
        say('it signed in by passkey only, and its passkey cannot be read: the user must reset the password');
      else if (hash && isLegacyHash(hash)) passwordHash = hash;
      else say('its password hash is in no format known here: the user must reset the password');
      if (!passwordEnabled && passkey && passwordHash)
        say('it signed in by passkey only: here it signs in with its password and the passkey as second factor');
      const twofa = twofaOf(ctx, u);
      if (twofa.problem)
        say(
          `2FA is on, but ${twofa.problem}: imported with 2FA required and no secret, so it cannot sign in until an administrator resets its 2FA (then it sets 2FA up again)`,
        );
      const created = date(u.created) ?? new Date(0);
      return {
        ...(places[i].id !== undefined ? { id: places[i].id } : {}),
        username: places[i].name,
        email,
        passwordHash,
        firstName: text(u.firstname) ?? '',
        lastName: text(u.lastname) ?? '',
        isActive: bool(u.is_active),
        locale: has(ctx, 'backend_locale') && LOCALE.test(String(u.backend_locale ?? '')) ? String(u.backend_locale) : 'en_US',
        roleId,
        lastLoginAt: date(u.logdate),
        loginCount: int(u.lognum) ?? 0,
        twofaEnabled: twofa.enabled,
        twofaSecret: twofa.secret,
        createdAt: created,
        updatedAt: date(u.modified) ?? created,
      };
    });
    // what changed here since the source's row last did is kept: a password re-hashed at sign-in, 2FA set up again
    const unchanged = 'excluded.updated_at <= t.updated_at';
    const rules = {
      passwordHash: `CASE WHEN t.password_hash LIKE 'scrypt$%' AND ${unchanged} THEN t.password_hash ELSE excluded.password_hash END`,
      twofaEnabled: `CASE WHEN ${unchanged} THEN t.twofa_enabled ELSE excluded.twofa_enabled END`,
      twofaSecret: `CASE WHEN ${unchanged} AND (t.twofa_secret IS NOT NULL OR excluded.twofa_secret IS NULL) THEN t.twofa_secret ELSE excluded.twofa_secret END`,
      lastLoginAt: 'GREATEST(t.last_login_at, excluded.last_login_at)',
      loginCount: 'GREATEST(t.login_count, excluded.login_count)',
      updatedAt: 'GREATEST(t.updated_at, excluded.updated_at)',
    };
    count(
      stats,
      await upsert(
        ctx.db,
        adminUsers,
        values.filter((v) => v.id !== undefined),
        [adminUsers.id],
        rules,
      ),
    );
    count(
      stats,
      await upsert(
        ctx.db,
        adminUsers,
        values.filter((v) => v.id === undefined),
        [adminUsers.username],
        rules,
      ),
    );
    const ours = new Map(
      (await ctx.db.select({ id: adminUsers.id, username: adminUsers.username }).from(adminUsers)).map((u) => [u.username, u.id]),
    );
    await recordIds(
      ctx.db,
      'staff users',
      kept.map((k, i) => [k.source.user_id, ours.get(values[i].username)!]),
    );
    tick(users.length);
  },
};

/** The host Maho's passkeys were registered for: its base URL's (Mage_Admin_Helper_Auth::getWebAuthn). */
async function sourceHost(ctx: ImportContext): Promise<string | undefined> {
  const urls = await ctx.source.query<{ path: string; value: string | null }>(
    "SELECT path, value FROM core_config_data WHERE scope = 'default' AND scope_id = 0 AND path IN ('web/secure/base_url', 'web/unsecure/base_url')",
  );
  for (const path of ['web/secure/base_url', 'web/unsecure/base_url']) {
    try {
      const host = new URL(String(urls.find((u) => u.path === path)?.value ?? '')).hostname;
      if (host) return host;
    } catch {
      // not a URL (a {{placeholder}})
    }
  }
  return undefined;
}

export const staffPasskeysImporter: EntityImporter = {
  name: 'staff passkeys',
  group: 'staff',
  count: (ctx) =>
    has(ctx, 'passkey_credential_id_hash')
      ? ctx.source.count('admin_user', "passkey_credential_id_hash IS NOT NULL AND passkey_credential_id_hash <> ''")
      : Promise.resolve(0),
  async run(ctx, stats, tick) {
    if (!has(ctx, 'passkey_credential_id_hash') || !has(ctx, 'passkey_public_key')) return;
    const list = await ctx.source.query(
      "SELECT user_id, passkey_credential_id_hash, passkey_public_key FROM admin_user WHERE passkey_credential_id_hash IS NOT NULL AND passkey_credential_id_hash <> '' ORDER BY user_id",
    );
    stats.found = list.length;
    const userIds = await mappedIds(
      ctx.db,
      'staff users',
      list.map((r) => r.user_id),
    );
    const previous = await mappedIds(
      ctx.db,
      'staff passkeys',
      list.map((r) => r.user_id),
    );
    const wanted: { sourceId: unknown; userId: number; credentialId: string; publicKey: string }[] = [];
    for (const r of list) {
      const userId = userIds.get(String(r.user_id));
      const key = mahoPasskey(String(r.passkey_credential_id_hash), String(r.passkey_public_key ?? ''));
      if (userId === undefined) ctx.report.skip(stats, r.user_id, 'its staff user was not imported');
      else if (!key) ctx.report.skip(stats, r.user_id, 'the public key is not readable (the user registers the passkey again)');
      else wanted.push({ sourceId: r.user_id, userId, ...key });
    }
    const existing = wanted.length
      ? await rows<{ id: number; user_id: number; credential_id: string }>(
          ctx.db,
          sql`SELECT id, user_id, credential_id FROM admin_passkeys WHERE credential_id = ANY(${`{${wanted.map((w) => `"${w.credentialId}"`).join(',')}}`}::text[])`,
        )
      : [];
    const holder = new Map(existing.map((e) => [e.credential_id, e.user_id]));
    const values = wanted.filter((w) => {
      const other = holder.get(w.credentialId);
      if (other === undefined || other === w.userId) return true;
      ctx.report.skip(stats, w.sourceId, 'the credential is registered to another staff user here');
      return false;
    });
    // a passkey replaced in the source since the last run: the one imported then goes
    const stale = values.map((v) => previous.get(String(v.sourceId))).filter((id): id is number => id !== undefined);
    if (stale.length) {
      await ctx.db.execute(
        sql`DELETE FROM admin_passkeys p USING import_id_map m
             WHERE m.entity = 'staff passkeys' AND m.target_id = p.id AND p.id = ANY(${intArray(stale)}::int[])
               AND p.credential_id <> ALL(${`{${values.map((v) => `"${v.credentialId}"`).join(',')}}`}::text[])`,
      );
    }
    count(
      stats,
      await upsert(
        ctx.db,
        adminPasskeys,
        values.map((v) => ({ userId: v.userId, credentialId: v.credentialId, publicKey: v.publicKey, name: 'Passkey imported from Maho' })),
        [adminPasskeys.credentialId],
        { name: 't.name' },
      ),
    );
    const ids = new Map(
      (
        await rows<{ id: number; credential_id: string }>(
          ctx.db,
          sql`SELECT id, credential_id FROM admin_passkeys WHERE user_id = ANY(${intArray(values.map((v) => v.userId))}::int[])`,
        )
      ).map((r) => [r.credential_id, r.id]),
    );
    await recordIds(
      ctx.db,
      'staff passkeys',
      values.map((v) => [v.sourceId, ids.get(v.credentialId)!]),
    );
    if (values.length) {
      const host = await sourceHost(ctx);
      ctx.report.note(
        stats,
        '*',
        `passkeys belong to the host Maho's back office ran on${host ? ` (${host})` : ''}: they sign in here only when admin/security/webauthn_rp_id is that host and admin/security/webauthn_origin the back office's origin under it`,
      );
    }
    tick(list.length);
  },
};
