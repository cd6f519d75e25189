/**
 * `catalog_product_attribute_set` (`product_attribute_set`) of the Magento 1 API: the sets, a set made from a
 * skeleton set, a set removed (with its products when told to), an attribute added to a set's group or taken out,
 * and groups added, renamed and removed, over the catalog's attribute set service and its legacy helpers. Groups
 * are named by the ids of attribute_groups (see catalog/attributes/legacy.ts): a group added here keeps its id,
 * and stays while it is empty, as Magento's groups do. Unlike Magento, a group is only one of the set it is given
 * with, an attribute every set holds (name, sku, status, ...) is not taken out, and removing a set with its products
 * needs the role's permission to delete products as well.
 */
import { hasPermission } from '../../../platform/auth/access.js';
import { withTx } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import {
  addGroup,
  addSetAttribute,
  attributeSetNames,
  copyGroups,
  productIdsOfSet,
  removeGroup,
  removeSetAttribute,
  renameGroup,
} from '../../catalog/attributes/legacy.js';
import { attributeSetExists } from '../../catalog/attributes/service.js';
import { createAttributeSet, deleteAttributeSet } from '../../catalog/attributes/write.js';
import { deleteProduct } from '../../catalog/products/write.js';
import { SoapFault } from '../faults.js';
import { GLOBAL_FAULTS, defineResource, idArg, resourceFault, type LegacyValue } from '../resources.js';
import { rec, stripTags } from './product-attribute-input.js';

/** A service's refusal as the fault its reason names (with the service's message), else as `otherwise`. */
function fault(err: unknown, byReason: Record<string, string>, otherwise: string): never {
  if (err instanceof AppError && err.status < 500) {
    const name = (err.reason && byReason[err.reason]) || otherwise;
    const withMessage = name === otherwise || err.status === 400;
    throw resourceFault(attributeSet, name, withMessage ? err.message : undefined);
  }
  throw err;
}

const SET_REASONS = { ATTRIBUTE_SET_NOT_FOUND: 'invalid_attribute_set_id', ATTRIBUTE_NOT_FOUND: 'invalid_attribute_id' };

/** An id argument; `name` when it is none (Magento finds no row for it). */
function idOf(v: LegacyValue | undefined, name: string): number {
  const id = idArg(v);
  if (id === undefined) throw resourceFault(attributeSet, name);
  return id;
}

/** A name argument as text without markup. */
function nameOf(v: LegacyValue | undefined, otherwise: string): string {
  if (typeof v !== 'string' && typeof v !== 'number') throw resourceFault(attributeSet, otherwise, 'A name is required.');
  return stripTags(String(v));
}

const truthy = (v: LegacyValue | undefined) => ['1', 'true', 1, true].includes(v as string | number | boolean);

export const attributeSet = defineResource({
  name: 'catalog_product_attribute_set',
  title: 'Product attribute sets API',
  aliases: ['product_attribute_set'],
  faults: {
    invalid_skeleton_set_id: ['100', 'Attribute set with requested id does not exist.'],
    invalid_data: ['101', 'Invalid data given.'],
    create_attribute_set_error: ['102', 'Error while creating attribute set. Details in error message.'],
    remove_attribute_set_error: ['103', 'Error while removing attribute set. Details in error message.'],
    invalid_attribute_set_id: ['104', 'Attribute set with requested id does not exist.'],
    attribute_set_has_related_products: [
      '105',
      'Unable to remove attribute set as it has related goods. Use forceProductsRemove parameter to remove attribute set with all goods.',
    ],
    invalid_attribute_id: ['106', 'Attribute with requested id does not exist.'],
    add_attribute_error: ['107', 'Error while adding attribute to attribute set. Details in error message.'],
    invalid_attribute_group_id: ['108', 'Attribute group with requested id does not exist.'],
    attribute_is_already_in_set: ['109', 'Requested attribute is already in requested attribute set.'],
    remove_attribute_error: ['110', 'Error while removing attribute from attribute set. Details in error message.'],
    attribute_is_not_in_set: ['111', 'Requested attribute is not in requested attribute set.'],
    group_already_exists: ['112', 'Requested group exist already in requested attribute set.'],
    group_add_error: ['113', 'Error while adding group to attribute set. Details in error message.'],
    group_rename_error: ['114', 'Error while renaming group. Details in error message.'],
    group_remove_error: ['115', 'Error while removing group from attribute set. Details in error message.'],
    group_has_system_attributes: ['116', 'Group can not be removed as it contains system attributes.'],
    group_has_configurable_attributes: ['117', 'Group can not be removed as it contains attributes, used in configurable products.'],
  },
  methods: {
    create: {
      title: 'Create attribute set based on another set',
      permission: ['attribute-sets', 'create'],
      params: ['attributeSetName', 'skeletonSetId'],
      run: async (ctx, [attributeSetName, skeletonSetId]) => {
        const skeleton = idArg(skeletonSetId);
        if (skeleton === undefined || !(await attributeSetExists(ctx, skeleton)))
          throw resourceFault(attributeSet, 'invalid_skeleton_set_id');
        const name = typeof attributeSetName === 'string' || typeof attributeSetName === 'number' ? String(attributeSetName).trim() : '';
        if (!name) throw resourceFault(attributeSet, 'invalid_data', 'Attribute set name is empty.');
        if (name.length > 255) throw resourceFault(attributeSet, 'invalid_data', 'An attribute set name has at most 255 characters.');
        try {
          return await withTx(ctx, async (tx) => {
            const created = await createAttributeSet(tx, { attributeSetName: name, skeletonSetId: skeleton });
            await copyGroups(tx, skeleton, created.id);
            return created.id;
          });
        } catch (err) {
          if (err instanceof AppError && err.reason === 'DUPLICATE_NAME') {
            throw resourceFault(attributeSet, 'invalid_data', `Attribute set with the "${name}" name already exists.`);
          }
          fault(err, { VALIDATION_FAILED: 'invalid_data' }, 'create_attribute_set_error');
        }
      },
    },
    remove: {
      title: 'Remove attribute set',
      permission: ['attribute-sets', 'delete'],
      params: ['attributeSetId', 'forceProductsRemove'],
      run: async (ctx, [attributeSetId, forceProductsRemove]) => {
        const id = idOf(attributeSetId, 'invalid_attribute_set_id');
        const force = truthy(forceProductsRemove);
        const productIds = await productIdsOfSet(ctx, id);
        if (productIds.length && !force) throw resourceFault(attributeSet, 'attribute_set_has_related_products');
        if (!(await attributeSetExists(ctx, id))) throw resourceFault(attributeSet, 'invalid_attribute_set_id');
        // the products go with the set: only for a role that may delete them
        if (productIds.length && (ctx.actor.kind !== 'admin' || !hasPermission(ctx.actor.permissions, 'products', 'delete'))) {
          throw new SoapFault(GLOBAL_FAULTS.access_denied[0], GLOBAL_FAULTS.access_denied[1]);
        }
        try {
          await withTx(ctx, async (tx) => {
            for (const productId of await productIdsOfSet(tx, id)) await deleteProduct(tx, productId);
            await deleteAttributeSet(tx, id);
          });
        } catch (err) {
          fault(err, { ATTRIBUTE_SET_NOT_FOUND: 'invalid_attribute_set_id' }, 'remove_attribute_set_error');
        }
        return true;
      },
    },
    list: {
      title: 'Retrieve product attribute sets',
      permission: ['attribute-sets', 'read'],
      params: [],
      run: async (ctx) =>
        (await attributeSetNames(ctx)).map((s) =>
          rec([
            ['set_id', s.id],
            ['name', s.name],
          ]),
        ),
    },
    attributeAdd: {
      title: 'Add attribute into attribute set',
      permission: ['attribute-sets', 'write'],
      params: ['attributeId', 'attributeSetId', 'attributeGroupId', 'sortOrder'],
      run: async (ctx, [attributeId, attributeSetId, attributeGroupId, sortOrder]) => {
        const attribute = idOf(attributeId, 'invalid_attribute_id');
        const setId = idOf(attributeSetId, 'invalid_attribute_set_id');
        const noGroup = attributeGroupId === undefined || attributeGroupId === null || attributeGroupId === '' || attributeGroupId === 0;
        const groupId = noGroup ? undefined : idOf(attributeGroupId, 'invalid_attribute_group_id');
        const order = sortOrder === undefined || sortOrder === null || sortOrder === '' ? 0 : Number(sortOrder);
        if (!Number.isInteger(order) || Math.abs(order) > 1_000_000) {
          throw resourceFault(attributeSet, 'add_attribute_error', 'Invalid value for sortOrder.');
        }
        try {
          await addSetAttribute(ctx, { attributeId: attribute, setId, groupId, sortOrder: order });
        } catch (err) {
          fault(
            err,
            { ...SET_REASONS, GROUP_NOT_FOUND: 'invalid_attribute_group_id', ALREADY_IN_SET: 'attribute_is_already_in_set' },
            'add_attribute_error',
          );
        }
        return true;
      },
    },
    attributeRemove: {
      title: 'Remove attribute from attribute set',
      permission: ['attribute-sets', 'write'],
      params: ['attributeId', 'attributeSetId'],
      run: async (ctx, [attributeId, attributeSetId]) => {
        const attribute = idOf(attributeId, 'invalid_attribute_id');
        const setId = idOf(attributeSetId, 'invalid_attribute_set_id');
        try {
          await removeSetAttribute(ctx, attribute, setId);
        } catch (err) {
          fault(err, { ...SET_REASONS, NOT_IN_SET: 'attribute_is_not_in_set' }, 'remove_attribute_error');
        }
        return true;
      },
    },
    groupAdd: {
      title: 'Add group into attribute set',
      permission: ['attribute-sets', 'write'],
      params: ['attributeSetId', 'groupName'],
      run: async (ctx, [attributeSetId, groupName]) => {
        const setId = idArg(attributeSetId);
        // Magento saves the group and fails on the set's foreign key: its group_add_error
        if (setId === undefined) throw resourceFault(attributeSet, 'group_add_error', 'Attribute set with requested id does not exist.');
        const name = nameOf(groupName, 'group_add_error');
        try {
          return await addGroup(ctx, setId, name);
        } catch (err) {
          fault(err, { GROUP_EXISTS: 'group_already_exists' }, 'group_add_error');
        }
      },
    },
    groupRename: {
      title: 'Rename existing group',
      permission: ['attribute-sets', 'write'],
      params: ['groupId', 'groupName'],
      run: async (ctx, [groupId, groupName]) => {
        const id = idOf(groupId, 'invalid_attribute_group_id');
        const name = nameOf(groupName, 'group_rename_error');
        try {
          await renameGroup(ctx, id, name);
        } catch (err) {
          fault(err, { GROUP_NOT_FOUND: 'invalid_attribute_group_id' }, 'group_rename_error');
        }
        return true;
      },
    },
    groupRemove: {
      title: 'Remove group from attribute set',
      permission: ['attribute-sets', 'write'],
      params: ['attributeGroupId'],
      run: async (ctx, [attributeGroupId]) => {
        const id = idOf(attributeGroupId, 'invalid_attribute_group_id');
        try {
          await removeGroup(ctx, id);
        } catch (err) {
          fault(
            err,
            {
              GROUP_NOT_FOUND: 'invalid_attribute_group_id',
              GROUP_HAS_CONFIGURABLE: 'group_has_configurable_attributes',
              GROUP_HAS_SYSTEM: 'group_has_system_attributes',
            },
            'group_remove_error',
          );
        }
        return true;
      },
    },
  },
});
