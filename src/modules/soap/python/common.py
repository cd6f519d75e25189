"""Shared by the XML-RPC scenarios: Python's own xmlrpc.client proxy to RPC_URL, the login as RPC_USER with RPC_KEY,
named steps whose outcomes are kept in `out`, and `out` printed as one JSON object at the end.

A scenario imports it by name (`from common import ...`): python puts the folder of the script it runs first on
sys.path, so this works from any working directory.
"""
import json
import os
import xmlrpc.client

proxy = xmlrpc.client.ServerProxy(os.environ["RPC_URL"], allow_none=True)
out = {}


def outcome(fn):
    """What `fn` answers as {"ok": value}, or the XML-RPC fault it raises as {"fault": [code, message]}."""
    try:
        return {"ok": fn()}
    except xmlrpc.client.Fault as f:
        return {"fault": [f.faultCode, f.faultString]}


def step(name, fn):
    """Runs one step and keeps its outcome under `name`; answers its value (None when it faulted)."""
    out[name] = outcome(fn)
    return out[name].get("ok")


def login():
    """A new session of the user RPC_USER (API key RPC_KEY)."""
    return proxy.login(os.environ["RPC_USER"], os.environ["RPC_KEY"])


def finish():
    """Prints every step's outcome, in the order they ran, as one JSON object."""
    print(json.dumps(out))
