"""The Magento 1 API over XML-RPC, driven by Python's own xmlrpc.client as an integration would drive it.

Reads RPC_URL, RPC_USER, RPC_KEY, RPC_CUSTOMER_ID, RPC_DENIED_USER and RPC_DENIED_KEY from the environment and
prints one JSON object: each step's result ({"ok": value}) or fault ({"fault": [code, message]}).
"""
import os
import xmlrpc.client

from common import finish, login, out, outcome, proxy, step

session = login()
out["login"] = {"ok": session}
customer = int(os.environ["RPC_CUSTOMER_ID"])

step("info", lambda: proxy.call(session, "magento.info"))
step("countries", lambda: proxy.call(session, "directory_country.list"))
step("regions", lambda: proxy.call(session, "region.list", ["US"]))
step("regionsUnknown", lambda: proxy.call(session, "directory_region.list", ["XX"]))
step("stores", lambda: proxy.call(session, "core_store.list"))
step("storeByCode", lambda: proxy.call(session, "store.info", "default"))
step("storeMissing", lambda: proxy.call(session, "core_store.info", 999999))
step("groups", lambda: proxy.call(session, "customer_group.list"))
address = {
    "firstname": "Xavier",
    "lastname": "Rpc",
    "street": ["1 Main St", "Floor 2"],
    "city": "Berlin",
    "country_id": "DE",
    "region_id": 82,
    "postcode": "10115",
    "telephone": "030 1234",
    "is_default_billing": True,
}
step("create", lambda: proxy.call(session, "customer_address.create", [customer, address]))
created = out["create"].get("ok")
step("list", lambda: proxy.call(session, "customer_address.list", customer))
step("update", lambda: proxy.call(session, "customer_address.update", {"addressId": created, "addressData": {"city": "Hamburg"}}))
step("read", lambda: proxy.call(session, "customer_address.info", created))
step("invalid", lambda: proxy.call(session, "customer_address.create", [customer, {"firstname": "No"}]))
step(
    "multiCall",
    lambda: proxy.multiCall(
        session,
        [["customer_address.info", created], ["customer_address.info", 999999999], ["directory_region.list", "CA"]],
    ),
)
step(
    "multiCallBreak",
    lambda: proxy.multiCall(session, [["customer_address.info", 999999999], ["core_store.list"]], {"break": 1}),
)
step("delete", lambda: proxy.call(session, "customer_address.delete", created))
step("deletedInfo", lambda: proxy.call(session, "customer_address.info", created))
step("badPath", lambda: proxy.call(session, "nothing.here"))
step("noDot", lambda: proxy.call(session, "customer_address"))
step("resources", lambda: proxy.resources(session))
step("resourceFaults", lambda: proxy.resourceFaults(session, "customer_address"))
step("resourceFaultsOfAlias", lambda: proxy.resourceFaults(session, "region"))
step("resourceFaultsUnknown", lambda: proxy.resourceFaults(session, "nothing"))
step("globalFaults", lambda: proxy.globalFaults(session))
step("unknownMethod", lambda: proxy.doesNotExist(session))

multi = xmlrpc.client.MultiCall(proxy)
multi.call(session, "core_magento.info")
multi.call(session, "nothing.here")
results = multi()
out["systemMulticall"] = {"ok": [outcome(lambda: results[0]), outcome(lambda: results[1])]}

denied = proxy.login(os.environ["RPC_DENIED_USER"], os.environ["RPC_DENIED_KEY"])
step("deniedCreate", lambda: proxy.call(denied, "customer_address.create", [customer, address]))
step("deniedGroups", lambda: proxy.call(denied, "customer_group.list"))
step("deniedResources", lambda: proxy.resources(denied))
step("wrongKey", lambda: proxy.login(os.environ["RPC_USER"], "wrong-key"))
step("endSession", lambda: proxy.endSession(session))
step("afterEnd", lambda: proxy.call(session, "core_magento.info"))
step("garbageSession", lambda: proxy.call("not-a-session", "core_magento.info"))

finish()
