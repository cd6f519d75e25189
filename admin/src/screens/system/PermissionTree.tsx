/**
 * The permission tree of a role: "every permission" at the root, then a group per area (its box checks or clears
 * all of the group) and a row per resource with read / write / create / delete. Create is implied by write.
 */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { PERMISSION_OPS, PERMISSION_TREE, granted, type Grants, type PermissionOp } from './permissions';

function TriState(props: { checked: boolean; mixed: boolean; label: string; disabled?: boolean; onChange: (on: boolean) => void }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = props.mixed;
  }, [props.mixed]);
  return (
    <label className="checkbox perm-group-box">
      <input
        ref={ref}
        type="checkbox"
        checked={props.checked}
        aria-checked={props.mixed ? 'mixed' : props.checked}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.checked)}
      />
      {props.label}
    </label>
  );
}

export function PermissionTree(props: { value: Grants; onChange: (g: Grants) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const g = props.value;
  const resourceLabel = (r: string) => t(`system.resources.${r}`, { defaultValue: r });
  const opLabel = (op: PermissionOp) => t(`system.permissionOps.${op}`);

  function setOps(resource: string, ops: PermissionOp[]) {
    props.onChange({ all: false, byResource: { ...g.byResource, [resource]: ops } });
  }
  function toggle(resource: string, op: PermissionOp, on: boolean) {
    let ops = PERMISSION_OPS.filter((o) => granted(g, resource, o));
    if (on) ops = [...ops, op];
    else {
      ops = ops.filter((o) => o !== op);
      // clearing write clears the create it implied only when create was not chosen by itself
      if (op === 'write' && !(g.byResource[resource] ?? []).includes('create')) ops = ops.filter((o) => o !== 'create');
    }
    setOps(resource, [...new Set(ops)]);
  }
  function setGroup(resources: string[], on: boolean) {
    const next = { ...g.byResource };
    for (const r of resources) next[r] = on ? [...PERMISSION_OPS] : [];
    props.onChange({ all: false, byResource: next });
  }

  return (
    <fieldset className="perm-tree" disabled={props.disabled}>
      <legend>{t('system.roles.permissions')}</legend>
      <label className="checkbox perm-all">
        <input type="checkbox" checked={g.all} onChange={(e) => props.onChange({ ...g, all: e.target.checked })} />
        {t('system.roles.allPermissions')}
      </label>
      <ul className="perm-groups" aria-label={t('system.roles.permissionGroups')}>
        {PERMISSION_TREE.map(({ group, resources }) => {
          const cells = resources.flatMap((r) => PERMISSION_OPS.map((op) => granted(g, r, op)));
          const full = cells.every(Boolean);
          const some = cells.some(Boolean);
          const groupLabel = t(`system.permissionGroups.${group}`);
          return (
            <li key={group}>
              <TriState
                label={groupLabel}
                checked={full}
                mixed={some && !full}
                disabled={g.all}
                onChange={(on) => setGroup(resources, on)}
              />
              <table className="perm-table">
                <caption className="sr-only">{groupLabel}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('system.roles.resource')}</th>
                    {PERMISSION_OPS.map((op) => (
                      <th key={op} scope="col">
                        {opLabel(op)}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {resources.map((r) => (
                    <tr key={r}>
                      <th scope="row">{resourceLabel(r)}</th>
                      {PERMISSION_OPS.map((op) => {
                        const implied = op === 'create' && !g.all && (g.byResource[r] ?? []).includes('write');
                        return (
                          <td key={op}>
                            <input
                              type="checkbox"
                              aria-label={t('system.roles.grant', { resource: resourceLabel(r), op: opLabel(op) })}
                              checked={granted(g, r, op)}
                              disabled={g.all || implied}
                              title={implied ? t('system.roles.createByWrite') : undefined}
                              onChange={(e) => toggle(r, op, e.target.checked)}
                            />
                          </td>
                        );
                      })}
                    </tr>
                  ))}
                </tbody>
              </table>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}
