"""A warehouse on the Magento 1 API over XML-RPC, driven by Python's own xmlrpc.client as its integration would.

For the invoiced order RPC_ORDER (increment id) with the line RPC_ITEM (order item id, qty 3): the carriers, a
shipment of two with a comment, the shipments of the order, a tracking number added and removed, then a credit
memo refunding one and the memo read back. Reads RPC_URL, RPC_USER and RPC_KEY too, and prints one JSON object:
each step's result ({"ok": value}) or fault ({"fault": [code, message]}).
"""
import os

from common import finish, login, out, proxy, step

session = login()
order = os.environ["RPC_ORDER"]
item = os.environ["RPC_ITEM"]

step("carriers", lambda: proxy.call(session, "order_shipment.getCarriers", [order]))
step(
    "create",
    lambda: proxy.call(session, "sales_order_shipment.create", [order, {item: 2}, "Packed by the warehouse", True, True]),
)
shipment = out["create"].get("ok")
step("list", lambda: proxy.call(session, "order_shipment.list", [{"order_increment_id": order}]))
step("addTrack", lambda: proxy.call(session, "order_shipment.addTrack", [shipment, "ups", "UPS Ground", "1Z999"]))
step("badCarrier", lambda: proxy.call(session, "order_shipment.addTrack", [shipment, "pigeon", "Pigeon", "1"]))
step("infoWithTrack", lambda: proxy.call(session, "order_shipment.info", [shipment]))
step("removeTrack", lambda: proxy.call(session, "order_shipment.removeTrack", [shipment, out["addTrack"].get("ok")]))
step("removeAgain", lambda: proxy.call(session, "order_shipment.removeTrack", [shipment, out["addTrack"].get("ok")]))
step("infoWithoutTrack", lambda: proxy.call(session, "order_shipment.info", [shipment]))
step("missing", lambda: proxy.call(session, "order_shipment.info", ["999999999"]))
step(
    "refund",
    lambda: proxy.call(
        session,
        "order_creditmemo.create",
        [order, {"qtys": [{"order_item_id": int(item), "qty": 1}], "shipping_amount": 0}, "Returned damaged"],
    ),
)
step("memo", lambda: proxy.call(session, "order_creditmemo.info", [out["refund"].get("ok")]))
step("memos", lambda: proxy.call(session, "order_creditmemo.list", [{"order_increment_id": order}]))
proxy.endSession(session)
finish()
