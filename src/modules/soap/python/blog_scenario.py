"""A content tool publishing to the blog over the Magento 1 API's XML-RPC, driven by Python's own xmlrpc.client.

Creates a post in the store views RPC_STORES (comma-separated codes), reads it, finds it with a filter on its
URL key and with the store filter, updates it (title, activation, publish date), lists the active posts, deletes
it and reads it again. Reads RPC_URL, RPC_USER and RPC_KEY too, and prints one JSON object: each step's result
({"ok": value}) or fault ({"fault": [code, message]}).
"""
import os

from common import finish, login, proxy, step

session = login()
stores = os.environ["RPC_STORES"].split(",")

post = step(
    "create",
    lambda: proxy.call(
        session,
        "blog_post.create",
        [
            {
                "title": "Spring Collection",
                "content": "<p>New in the shop</p>",
                "url_key": "spring-collection-xmlrpc",
                "meta_title": "Spring",
                "publish_date": "2025-03-01",
                "stores": stores,
            }
        ],
    ),
)
step("info", lambda: proxy.call(session, "blog_post.info", [post]))
step("byUrlKey", lambda: proxy.call(session, "blog_post.list", [{"url_key": "spring-collection-xmlrpc"}]))
step("byStore", lambda: proxy.call(session, "blog_post.list", [{"store": {"in": stores}, "post_id": post}]))
step(
    "update",
    lambda: proxy.call(session, "blog_post.update", [post, {"title": "Spring Collection 2025", "is_active": "1", "publish_date": ""}]),
)
step("active", lambda: proxy.call(session, "blog_post.list", [{"is_active": 1, "post_id": {"eq": post}}]))
step("missingTitle", lambda: proxy.call(session, "blog_post.create", [{"content": "no title"}]))
step("delete", lambda: proxy.call(session, "blog_post.delete", [post]))
step("deleted", lambda: proxy.call(session, "blog_post.info", [post]))
proxy.endSession(session)
finish()
