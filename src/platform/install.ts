/** Runs each module's install step once per version, in module order, after the migrations. */
import { eq, sql } from 'drizzle-orm';
import type { Db } from './db.js';
import { LOCKS } from './locks.js';
import type { AppModule } from './module.js';
import { installState } from './tables.js';

export async function runInstall(db: Db, modules: AppModule[]): Promise<string[]> {
  const ran: string[] = [];
  for (const m of modules) {
    if (!m.install) continue;
    const install = m.install;
    await db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${LOCKS.install})`);
      const [state] = await tx.select().from(installState).where(eq(installState.module, m.name)).for('update');
      if (state && state.version >= install.version) return;
      await install.run(tx as unknown as Db);
      await tx
        .insert(installState)
        .values({ module: m.name, version: install.version })
        .onConflictDoUpdate({ target: installState.module, set: { version: install.version, installedAt: new Date() } });
      ran.push(m.name);
    });
  }
  return ran;
}
