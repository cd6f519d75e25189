"""A guest order placed over the Magento 1 API's XML-RPC, driven by Python's own xmlrpc.client, as a point of sale or
a marketplace connector places one: a cart created in a store view, products added by SKU, a guest customer and
addresses set, the shipping and payment methods listed and chosen, a coupon applied, the totals read, the order placed
and read back through sales_order.info.

Reads RPC_URL, RPC_USER, RPC_KEY, RPC_SKUS (two SKUs, comma-separated), RPC_COUPON and RPC_EMAIL from the environment,
and prints one JSON object: each step's result ({"ok": value}) or fault ({"fault": [code, message]}).
"""
import os

from common import finish, login, proxy, step

session = login()
first, second = os.environ["RPC_SKUS"].split(",")
email = os.environ["RPC_EMAIL"]

quote = step("create", lambda: proxy.call(session, "cart.create", ["default"]))
step("add", lambda: proxy.call(session, "cart_product.add", [quote, [{"sku": first, "qty": 2}, {"sku": second, "qty": "1"}]]))
step("list", lambda: proxy.call(session, "cart_product.list", [quote]))
step(
    "customer",
    lambda: proxy.call(
        session, "cart_customer.set", [quote, {"mode": "guest", "firstname": "Pat", "lastname": "Python", "email": email}]
    ),
)
address = {
    "mode": "billing",
    "firstname": "Pat",
    "lastname": "Python",
    "street": "1 Snake Lane\nSuite 2",
    "city": "Austin",
    "region": "TX",
    "postcode": "73301",
    "country_id": "US",
    "telephone": "555-0100",
    "use_for_shipping": 1,
}
step("addresses", lambda: proxy.call(session, "cart_customer.addresses", [quote, [address]]))
rates = step("shippingList", lambda: proxy.call(session, "cart_shipping.list", [quote]))
flat = [r["code"] for r in rates if r["carrier"] == "flatrate"][0]
step("shippingMethod", lambda: proxy.call(session, "cart_shipping.method", [quote, flat]))
step("unknownShipping", lambda: proxy.call(session, "cart_shipping.method", [quote, "nocarrier_nomethod"]))
step("paymentList", lambda: proxy.call(session, "cart_payment.list", [quote]))
step("paymentMethod", lambda: proxy.call(session, "cart_payment.method", [quote, {"method": "checkmo"}]))
step("badCoupon", lambda: proxy.call(session, "cart_coupon.add", [quote, "NO-SUCH-COUPON"]))
step("coupon", lambda: proxy.call(session, "cart_coupon.add", [quote, os.environ["RPC_COUPON"]]))
step("totals", lambda: proxy.call(session, "cart.totals", [quote]))
step("info", lambda: proxy.call(session, "cart.info", [quote]))
number = step("order", lambda: proxy.call(session, "cart.order", [quote]))
step("orderInfo", lambda: proxy.call(session, "sales_order.info", number))
step("again", lambda: proxy.call(session, "cart.order", [quote]))
step("after", lambda: proxy.call(session, "cart.info", [quote]))

finish()
