"""An ERP's order export over the Magento 1 API's XML-RPC, driven by Python's own xmlrpc.client.

Reads RPC_URL, RPC_USER, RPC_KEY, RPC_SINCE (a date), RPC_EMAIL (the customer email of the orders to export) and
RPC_OPEN_INVOICE (an invoice left open) from the environment, and prints one JSON object: each step's result
({"ok": value}) or fault ({"fault": [code, message]}).
"""
import os

from common import finish, login, proxy, step

session = login()
since = os.environ["RPC_SINCE"]
email = os.environ["RPC_EMAIL"]

# the new orders since the last run, as an ERP polls them
orders = step(
    "newOrders",
    lambda: proxy.call(
        session,
        "sales_order.list",
        [{"created_at": {"from": since}, "status": {"in": ["pending", "processing"]}, "customer_email": email}],
    ),
)
number = orders[0]["increment_id"]
order = step("info", lambda: proxy.call(session, "order.info", number))

# invoice one unit of the first line (Magento's map of order item id to qty; XML-RPC struct keys are strings)
first = order["items"][0]
invoice = step(
    "invoice",
    lambda: proxy.call(session, "sales_order_invoice.create", [number, {first["item_id"]: 1}, "Invoiced by the ERP", False, False]),
)
step("invoiceInfo", lambda: proxy.call(session, "order_invoice.info", invoice))
# paid at creation, as Magento registers an invoice of an offline payment method: nothing left to capture
step("captureInvoiced", lambda: proxy.call(session, "sales_order_invoice.capture", invoice))
step("captureOpen", lambda: proxy.call(session, "sales_order_invoice.capture", os.environ["RPC_OPEN_INVOICE"]))
step("invoiceComment", lambda: proxy.call(session, "sales_order_invoice.addComment", [invoice, "Booked in the ERP", False, False]))
step("orderComment", lambda: proxy.call(session, "sales_order.addComment", [number, "processing", "Exported to the ERP", False]))
step("after", lambda: proxy.call(session, "sales_order.info", number))
step("invoices", lambda: proxy.call(session, "sales_order_invoice.list", [{"order_id": order["order_id"]}]))
step("missing", lambda: proxy.call(session, "sales_order.info", "no-such-order"))
step("badFilter", lambda: proxy.call(session, "sales_order.list", [{"created_at": {"from": "not a date"}}]))

finish()
