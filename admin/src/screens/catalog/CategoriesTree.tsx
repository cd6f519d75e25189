/**
 * The category tree: open a category, add one below another, and move one by dragging it onto another (into it,
 * or before it when dropped on its upper half) or with its "Move" control (a parent and a place, by keyboard).
 */
import { useState, type DragEvent, type FormEvent } from 'react';
import { Link } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { useSession } from '../../auth/session';
import { ErrorNote, Notice, PageHeader, Spinner, TextField } from '../../components/ui';
import { flatten, useCategoryTree, type CategoryNode, type CategoryRow } from './categoryTree';
import './catalog.css';

interface Drop {
  id: number;
  where: 'before' | 'inside';
}

export function CategoriesTree() {
  const { t } = useTranslation();
  const { can } = useSession();
  const qc = useQueryClient();
  const tree = useCategoryTree();
  const [dragged, setDragged] = useState<number>();
  const [drop, setDrop] = useState<Drop>();
  const [moving, setMoving] = useState<number>();
  const [adding, setAdding] = useState<number>();
  const [error, setError] = useState<unknown>();
  const [said, setSaid] = useState('');
  const writable = can('categories', 'write');
  const all = flatten(tree.data ?? []);
  const byId = new Map(all.map(({ node }) => [node.category.id, node]));

  async function moveTo(id: number, parentId: number, position: number) {
    setError(undefined);
    try {
      await unwrap(api.PUT('/api/rest/v2/categories/{id}', { params: { path: { id } }, body: { parentId, position } }));
      await qc.invalidateQueries({ queryKey: ['catalog', 'category-tree'] });
      setSaid(t('catalog.categories.moved', { name: byId.get(id)?.category.name, parent: byId.get(parentId)?.category.name, position }));
      setMoving(undefined);
    } catch (err) {
      setError(err);
    }
  }

  function dropAt(target: CategoryRow, where: Drop['where']) {
    if (dragged === undefined || dragged === target.id) return;
    if (isBelow(byId.get(dragged), target.id)) return;
    if (where === 'inside') void moveTo(dragged, target.id, (byId.get(target.id)?.children.length ?? 0) + 1);
    else if (target.parentId !== undefined) {
      const siblings = byId.get(target.parentId)?.children.map((c) => c.category.id) ?? [];
      const without = siblings.filter((s) => s !== dragged);
      void moveTo(dragged, target.parentId, without.indexOf(target.id) + 1);
    }
  }

  function renderNode(node: CategoryNode) {
    const c = node.category;
    const canMove = writable && c.level > 1;
    return (
      <li key={c.id} className="cat-node">
        <div
          className="cat-row"
          data-drop={drop?.id === c.id ? drop.where : undefined}
          draggable={canMove}
          onDragStart={(e) => {
            e.stopPropagation();
            setDragged(c.id);
            e.dataTransfer.effectAllowed = 'move';
            e.dataTransfer.setData('text/plain', String(c.id));
          }}
          onDragEnd={() => {
            setDragged(undefined);
            setDrop(undefined);
          }}
          onDragOver={(e: DragEvent<HTMLDivElement>) => {
            if (dragged === undefined || dragged === c.id || isBelow(byId.get(dragged), c.id)) return;
            e.preventDefault();
            const r = e.currentTarget.getBoundingClientRect();
            setDrop({ id: c.id, where: e.clientY < r.top + r.height / 3 && c.level > 1 ? 'before' : 'inside' });
          }}
          onDragLeave={() => setDrop((d) => (d?.id === c.id ? undefined : d))}
          onDrop={(e) => {
            e.preventDefault();
            const where = drop?.id === c.id ? drop.where : 'inside';
            setDrop(undefined);
            dropAt(c, where);
            setDragged(undefined);
          }}
        >
          {canMove && (
            <span className="drag-handle" aria-hidden="true">
              ⠿
            </span>
          )}
          <Link to="/categories/$categoryId" params={{ categoryId: String(c.id) }}>
            {c.name}
          </Link>
          {!c.isActive && <span className="badge">{t('catalog.categories.inactive')}</span>}
          <small className="muted">{t('catalog.categories.products', { count: c.productCount })}</small>
          {canMove && (
            <button
              type="button"
              className="link"
              aria-expanded={moving === c.id}
              onClick={() => setMoving(moving === c.id ? undefined : c.id)}
            >
              {t('catalog.categories.moveOne', { name: c.name })}
            </button>
          )}
          {can('categories', 'create') && (
            <button
              type="button"
              className="link"
              aria-expanded={adding === c.id}
              onClick={() => setAdding(adding === c.id ? undefined : c.id)}
            >
              {t('catalog.categories.addBelow', { name: c.name })}
            </button>
          )}
        </div>
        {moving === c.id && (
          <MoveForm node={node} all={all.map((a) => a.node)} byId={byId} onMove={moveTo} onCancel={() => setMoving(undefined)} />
        )}
        {adding === c.id && (
          <AddForm
            parent={c}
            onDone={async (name) => {
              setAdding(undefined);
              await qc.invalidateQueries({ queryKey: ['catalog', 'category-tree'] });
              setSaid(t('catalog.categories.added', { name }));
            }}
          />
        )}
        {node.children.length > 0 && <ul>{node.children.map(renderNode)}</ul>}
      </li>
    );
  }

  return (
    <>
      <PageHeader title={t('catalog.categories.title')} />
      <p className="muted">{writable ? t('catalog.categories.dragHint') : ''}</p>
      <ErrorNote error={tree.error ?? error} />
      {said && <Notice>{said}</Notice>}
      {tree.isPending ? (
        <Spinner />
      ) : (
        <nav aria-label={t('catalog.categories.tree')} className="panel cat-tree">
          <ul>{(tree.data ?? []).map(renderNode)}</ul>
        </nav>
      )}
    </>
  );
}

/** Whether category `id` is `node` itself or below it (a category cannot move into its own subtree). */
function isBelow(node: CategoryNode | undefined, id: number): boolean {
  if (!node) return false;
  return node.category.id === id || node.children.some((c) => isBelow(c, id));
}

function MoveForm(props: {
  node: CategoryNode;
  all: CategoryNode[];
  byId: Map<number, CategoryNode>;
  onMove: (id: number, parentId: number, position: number) => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const c = props.node.category;
  const [parentId, setParentId] = useState(String(c.parentId ?? ''));
  const [position, setPosition] = useState(String(c.position));
  const parents = props.all.filter((n) => n.category.level >= 1 && !isBelow(props.node, n.category.id));
  const siblings = (props.byId.get(Number(parentId))?.children ?? []).filter((s) => s.category.id !== c.id);
  return (
    <form
      className="move-form"
      aria-label={t('catalog.categories.moveOne', { name: c.name })}
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        void props.onMove(c.id, Number(parentId), Number(position));
      }}
    >
      <label>
        {t('catalog.categories.moveParent')}
        <select value={parentId} onChange={(e) => setParentId(e.target.value)}>
          {parents.map((n) => (
            <option key={n.category.id} value={String(n.category.id)}>
              {'– '.repeat(Math.max(0, n.category.level - 1))}
              {n.category.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('catalog.categories.movePosition')}
        <select value={position} onChange={(e) => setPosition(e.target.value)}>
          {[...siblings, undefined].map((s, i) => (
            <option key={i} value={String(i + 1)}>
              {s ? t('catalog.categories.before', { name: s.category.name }) : t('catalog.categories.last')}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="primary">
        {t('catalog.categories.moveSubmit')}
      </button>
      <button type="button" onClick={props.onCancel}>
        {t('common.cancel')}
      </button>
    </form>
  );
}

function AddForm({ parent, onDone }: { parent: CategoryRow; onDone: (name: string) => Promise<void> }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [error, setError] = useState<unknown>();
  return (
    <form
      className="move-form"
      aria-label={t('catalog.categories.addBelow', { name: parent.name })}
      onSubmit={async (e) => {
        e.preventDefault();
        setError(undefined);
        try {
          await unwrap(api.POST('/api/rest/v2/categories', { body: { name, parentId: parent.id } }));
          await onDone(name);
        } catch (err) {
          setError(err);
        }
      }}
    >
      <TextField
        label={t('catalog.categories.newName')}
        name="name"
        operationId="categories.create"
        required
        error={error}
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <button type="submit" className="primary">
        {t('catalog.categories.addSubmit')}
      </button>
      <ErrorNote error={error} />
    </form>
  );
}
