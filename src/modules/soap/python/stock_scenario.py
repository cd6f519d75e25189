"""An ERP on the Magento 1 API over XML-RPC, driven by Python's own xmlrpc.client as its integration would.

Sets the stock of the products RPC_SKUS (comma-separated) in one product_stock.multiUpdate (quantity 1000 plus
the SKU's position), reads it back with product_stock.list, updates one product by id and reads that back. Then
reads the category tree, creates two categories under the default root, moves the second under the first,
assigns the first SKU to it, lists its products and deletes the first category (with the moved one). Reads
RPC_URL, RPC_USER and RPC_KEY too, and prints one JSON object: each step's result ({"ok": value}) or fault
({"fault": [code, message]}).
"""
import os

from common import finish, login, out, proxy, step

session = login()
skus = os.environ["RPC_SKUS"].split(",")

step(
    "multiUpdate",
    lambda: proxy.call(
        session,
        "product_stock.multiUpdate",
        [skus, [{"qty": 1000 + i, "is_in_stock": 1} for i in range(len(skus))]],
    ),
)
step("list", lambda: proxy.call(session, "product_stock.list", [skus]))
first = out["list"].get("ok", [{}])[0].get("product_id")
step("updateById", lambda: proxy.call(session, "cataloginventory_stock_item.update", [first, {"qty": "7.0000", "is_in_stock": "0"}]))
step("listById", lambda: proxy.call(session, "product_stock.list", [[first]]))
step("mismatch", lambda: proxy.call(session, "product_stock.multiUpdate", [skus[:2], [{"qty": 1}]]))
step("missing", lambda: proxy.call(session, "product_stock.update", ["no-such-sku-anywhere", {"qty": 1}]))
step("tree", lambda: proxy.call(session, "catalog_category.tree", []))
step("createParent", lambda: proxy.call(session, "category.create", [2, {"name": "ERP Import", "is_active": 1}]))
step("createChild", lambda: proxy.call(session, "category.create", [2, {"name": "ERP Moved", "is_active": 1}]))
parent = out["createParent"].get("ok")
child = out["createChild"].get("ok")
step("move", lambda: proxy.call(session, "category.move", [child, parent]))
step("assign", lambda: proxy.call(session, "category.assignProduct", [child, skus[0], 5, "sku"]))
step("assigned", lambda: proxy.call(session, "category.assignedProducts", [child]))
step("subtree", lambda: proxy.call(session, "category.tree", [parent]))
step("delete", lambda: proxy.call(session, "category.delete", [parent]))
step("deleted", lambda: proxy.call(session, "category.info", [child]))
proxy.endSession(session)
finish()
