"""A PIM on the Magento 1 API over XML-RPC, driven by Python's own xmlrpc.client as its integration would.

Creates a global select attribute "Material" (filterable, for configurable products), adds three options with
German labels (RPC_GERMAN is the German store view's id), makes the attribute set "PIM Apparel" from the Default
set, adds the group "Material" to it (and tries again, which is a fault), puts the attribute in that group and
reads everything back: the attribute's info, its options in the German store view, the set's attributes and the
sets. Reads RPC_URL, RPC_USER and RPC_KEY too, and prints one JSON object: each step's result ({"ok": value}) or
fault ({"fault": [code, message]}).
"""
import os

from common import finish, login, proxy, step

german = int(os.environ["RPC_GERMAN"])

session = login()

attribute = step(
    "create",
    lambda: proxy.call(
        session,
        "product_attribute.create",
        [
            {
                "attribute_code": "pim_material",
                "frontend_input": "select",
                "scope": "global",
                "is_configurable": 1,
                "is_required": 0,
                "additional_fields": {"is_filterable": 1, "position": 3},
                "frontend_label": [{"store_id": 0, "label": "Material"}, {"store_id": german, "label": "Stoff"}],
            }
        ],
    ),
)
for order, (label, german_label) in enumerate([("Cotton", "Baumwolle"), ("Wool", "Wolle"), ("Linen", None)]):
    labels = [{"store_id": 0, "value": label}]
    if german_label:
        labels.append({"store_id": german, "value": german_label})
    step(
        "option" + label,
        lambda: proxy.call(session, "product_attribute.addOption", [attribute, {"label": labels, "order": order, "is_default": 0}]),
    )

sets = proxy.call(session, "product_attribute_set.list", [])
default_set = next(s["set_id"] for s in sets if s["name"] == "Default")
new_set = step("set", lambda: proxy.call(session, "product_attribute_set.create", ["PIM Apparel", default_set]))
group = step("group", lambda: proxy.call(session, "product_attribute_set.groupAdd", [new_set, "Material"]))
step("duplicate", lambda: proxy.call(session, "product_attribute_set.groupAdd", [new_set, "Material"]))
step("add", lambda: proxy.call(session, "product_attribute_set.attributeAdd", [attribute, new_set, group, 10]))

step("info", lambda: proxy.call(session, "product_attribute.info", ["pim_material"]))
step("optionsGerman", lambda: proxy.call(session, "product_attribute.options", [attribute, german]))
step("list", lambda: proxy.call(session, "product_attribute.list", [new_set]))
step("sets", lambda: proxy.call(session, "product_attribute_set.list", []))
proxy.endSession(session)
finish()
