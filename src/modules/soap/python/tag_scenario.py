"""A moderation tool on the Magento 1 API over XML-RPC, driven by Python's own xmlrpc.client as its integration would.

Tags the product RPC_PRODUCT for the customer RPC_CUSTOMER in the default store view with three words (two of them
quoted as one tag), tags it again with one of them, lists the product's tags, approves the first tag with a base
popularity, reads it back with info, renames the second, removes the third and reads it once more. Reads RPC_URL,
RPC_USER and RPC_KEY too, and prints one JSON object: each step's result ({"ok": value}) or fault
({"fault": [code, message]}).
"""
import os

from common import finish, login, out, proxy, step

session = login()
product = os.environ["RPC_PRODUCT"]
customer = os.environ["RPC_CUSTOMER"]
data = {"product_id": product, "customer_id": customer, "store": "default", "tag": "erp 'erp two words' erp-old"}
step("add", lambda: proxy.call(session, "catalog_product_tag.add", [data]))
step("addAgain", lambda: proxy.call(session, "product_tag.add", [dict(data, tag="ERP")]))
step("list", lambda: proxy.call(session, "product_tag.list", [product, "default"]))
ids = out["add"].get("ok", {})
first, second, third = ids.get("erp"), ids.get("erp two words"), ids.get("erp-old")
step("approve", lambda: proxy.call(session, "product_tag.update", [first, {"status": 1, "base_popularity": "4"}, "default"]))
step("info", lambda: proxy.call(session, "product_tag.info", [first, "default"]))
step("rename", lambda: proxy.call(session, "product_tag.update", [second, {"name": "  ERP Pair  "}, None]))
step("renamed", lambda: proxy.call(session, "product_tag.info", [second, None]))
step("remove", lambda: proxy.call(session, "product_tag.remove", [third]))
step("removed", lambda: proxy.call(session, "product_tag.info", [third, "default"]))
proxy.endSession(session)
finish()
