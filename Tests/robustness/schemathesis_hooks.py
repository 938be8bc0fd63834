"""Loaded by Schemathesis (SCHEMATHESIS_HOOKS) in test_schemathesis.py.

The two operations that make the server download an address (a question bank, a news feed) get
an address on this machine instead of whatever was generated, so the fuzzer never makes the
server reach out to the internet. The server refuses loopback addresses (422 `private_address`)
before connecting, which is a documented answer, so nothing is lost but the download itself.
A generated value with no scheme or host in it (no ':', '/', '\\' or '.') is kept as it is.
"""

import urllib.parse

import schemathesis

DOWNLOADING = {"/imports/remote", "/articles/import"}


@schemathesis.hook
def before_call(context, case, kwargs):
    if case.operation.path not in DOWNLOADING or not isinstance(case.body, dict):
        return
    url = case.body.get("url")
    if isinstance(url, str) and any(mark in url for mark in ":/\\."):
        case.body["url"] = "http://127.0.0.1:9/fuzz?" + urllib.parse.quote(url, safe="")
