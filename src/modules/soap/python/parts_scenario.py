"""A PIM on the Magento 1 API over XML-RPC, driven by Python's own xmlrpc.client as its integration would.

With the products RPC_SKUS (three comma-separated SKUs: the main product and two others): uploads a PNG it draws
itself as the main product's base image and thumbnail, reads the gallery and the image back and relabels it;
sets two tier prices (every website and customer group, and the website `base` for the General group) and reads
them back; links the two others as related products, moves one and lists the links; adds a drop-down custom
option with two values, lists the options, reads the option and adds a third value. Reads RPC_URL, RPC_USER and
RPC_KEY too, and prints one JSON object: each step's result ({"ok": value}) or fault ({"fault": [code, message]}).
"""
import base64
import os
import struct
import zlib

from common import finish, login, out, proxy, step


def png(width, height, rgb):
    """A plain RGB PNG of one colour."""

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


session = login()
main, first, second = os.environ["RPC_SKUS"].split(",")
image = {
    "file": {"content": base64.b64encode(png(32, 24, (0, 128, 255))).decode(), "mime": "image/png", "name": "pim-photo"},
    "label": "Front",
    "position": 1,
    "exclude": 0,
    "types": ["image", "thumbnail"],
}

step("upload", lambda: proxy.call(session, "catalog_product_attribute_media.create", [main, image, None, "sku"]))
uploaded = out["upload"].get("ok")
step("gallery", lambda: proxy.call(session, "product_media.list", [main, None, "sku"]))
step("image", lambda: proxy.call(session, "product_media.info", [main, uploaded, None, "sku"]))
step("relabel", lambda: proxy.call(session, "product_media.update", [main, uploaded, {"label": "Front view"}, None, "sku"]))
step("missingImage", lambda: proxy.call(session, "product_media.info", [main, "/n/o/nothing.png", None, "sku"]))

tiers = [
    {"website": "all", "customer_group_id": "all", "qty": 5, "price": "9.5"},
    {"website": "base", "customer_group_id": 1, "qty": "10", "price": 8.25},
]
step("tiers", lambda: proxy.call(session, "product_tier_price.update", [main, tiers, "sku"]))
step("tierInfo", lambda: proxy.call(session, "catalog_product_attribute_tier_price.info", [main, "sku"]))

step("linkFirst", lambda: proxy.call(session, "catalog_product_link.assign", ["related", main, first, {"position": 2}, "sku"]))
step("linkSecond", lambda: proxy.call(session, "product_link.assign", ["related", main, second, {"position": 3}, "sku"]))
step("moveSecond", lambda: proxy.call(session, "product_link.update", ["related", main, second, {"position": 1}, "sku"]))
step("links", lambda: proxy.call(session, "product_link.list", ["related", main, "sku"]))

option = {
    "title": "Colour",
    "type": "drop_down",
    "is_require": 1,
    "sort_order": 1,
    "additional_fields": [
        {"title": "Red", "price": "1.50", "price_type": "fixed", "sku": "red", "sort_order": 1},
        {"title": "Blue", "price": 2, "price_type": "percent", "sku": "blue", "sort_order": 2},
    ],
}
step("addOption", lambda: proxy.call(session, "catalog_product_custom_option.add", [main, option]))
step("options", lambda: proxy.call(session, "product_custom_option.list", [main]))
option_id = (out["options"].get("ok") or [{}])[0].get("option_id")
step("optionInfo", lambda: proxy.call(session, "product_custom_option.info", [option_id]))
step(
    "addValue",
    lambda: proxy.call(session, "product_custom_option_value.add", [option_id, [{"title": "Green", "price": "0.75", "sort_order": 3}]]),
)
step("values", lambda: proxy.call(session, "product_custom_option_value.list", [option_id]))
proxy.endSession(session)
finish()
