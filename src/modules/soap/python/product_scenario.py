"""A PIM on the Magento 1 API over XML-RPC, driven by Python's own xmlrpc.client as its integration would.

Creates three simple children (colour and size by their option labels, stock, not visible on their own) and a
configurable product over colour and size with two of them, reads it back, then updates it: a third child, a new
name and price (by SKU), and a German name in the German store view. Lists the products of its SKU prefix,
gives a fourth product another child's combination and
tries to link it (refused), multi-updates the children's prices, sets a
special price and deletes a spare product. Reads RPC_URL, RPC_USER, RPC_KEY and RPC_TAG (the SKU prefix), and
prints one JSON object: each step's result ({"ok": value}) or fault ({"fault": [code, message]}).
"""
import os

from common import finish, login, out, proxy, step

tag = os.environ["RPC_TAG"]


def child(name, color, size):
    data = {
        "name": "Tee %s %s" % (color, size),
        "price": "19.90",
        "status": 1,
        "visibility": 1,
        "websites": ["base"],
        "color": color,
        "size": size,
        "stock_data": {"qty": "10.0000", "is_in_stock": 1},
    }
    return step(name, lambda: proxy.call(session, "catalog_product.create", ["simple", "1", "%s-%s-%s" % (tag, color, size), data]))


session = login()
step("types", lambda: proxy.call(session, "product_type.list", []))
c1 = child("child1", "Red", "S")
c2 = child("child2", "Blue", "S")
c3 = child("child3", "Red", "M")
step(
    "create",
    lambda: proxy.call(
        session,
        "product.create",
        [
            "configurable",
            1,
            tag,
            {
                "name": "Tee",
                "description": "A tee in two colours",
                "price": "25.00",
                "status": 1,
                "visibility": 4,
                "websites": [1],
                "categories": [2],
                "super_attributes": ["color", "size"],
                "child_product_ids": [c1, c2],
            },
        ],
    ),
)
step("info", lambda: proxy.call(session, "product.info", [tag, None, ["name", "price", "status", "visibility"], "sku"]))
step(
    "update",
    lambda: proxy.call(
        session,
        "catalog_product.update",
        [tag, {"name": "Tee Classic", "price": "27.50", "child_product_ids": [c1, c2, c3]}, None, "sku"],
    ),
)
step("updateGerman", lambda: proxy.call(session, "product.update", [tag, {"name": "T-Shirt Klassik"}, "german", "sku"]))
step("infoGerman", lambda: proxy.call(session, "product.info", [tag, "german", ["name", "price"], "sku"]))
step("infoDefault", lambda: proxy.call(session, "product.info", [tag, None, ["name"], "sku"]))
step("list", lambda: proxy.call(session, "product.list", [{"sku": {"like": tag + "%"}}]))
step("listConfigurable", lambda: proxy.call(session, "product.list", [{"sku": {"like": tag + "%"}, "type": "configurable"}, "german"]))
dup = child("duplicate", "Blue", "L")
step("dupSize", lambda: proxy.call(session, "product.update", [dup, {"size": "S"}]))
step("dupLink", lambda: proxy.call(session, "product.update", [tag, {"child_product_ids": [c1, c2, c3, dup]}, None, "sku"]))
step(
    "multiUpdate",
    lambda: proxy.call(session, "product.multiUpdate", [[c1, c2, c3], [{"price": "21"}, {"price": "22"}, {"price": "23"}]]),
)
step("setSpecialPrice", lambda: proxy.call(session, "product.setSpecialPrice", [tag, "24.00", "2030-01-01", None]))
step("getSpecialPrice", lambda: proxy.call(session, "product.getSpecialPrice", [tag]))
step("delete", lambda: proxy.call(session, "product.delete", [dup]))
step("deleted", lambda: proxy.call(session, "product.info", [dup]))
proxy.endSession(session)
out["ids"] = {"c1": c1, "c2": c2, "c3": c3}
finish()
