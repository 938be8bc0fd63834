"""Sign in with an external provider in a real browser: a GitHub-style provider (OAuth 2.0 without
OpenID Connect) served by the test on loopback, approving at once."""

import json
import secrets
import socket
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from selenium.webdriver.common.by import By

from conftest import Server
from test_journeys import by_id, click_id, open_browser, type_into


class FakeHub:
    """/authorize redirects back with a code; /token swaps it once for an access token; /user says who."""

    def __init__(self, login="octo"):
        self.login = login
        self.codes = {}
        self.tokens = {}
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def answer(self, status, body=None, location=None):
                self.send_response(status)
                if location:
                    self.send_header("Location", location)
                data = json.dumps(body or {}).encode()
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                url = urllib.parse.urlparse(self.path)
                query = dict(urllib.parse.parse_qsl(url.query))
                if url.path == "/authorize":
                    code = secrets.token_urlsafe(16)
                    fake.codes[code] = query["redirect_uri"]
                    self.answer(302, location=f"{query['redirect_uri']}?code={code}&state={query['state']}")
                elif url.path == "/user":
                    token = self.headers.get("Authorization", "").removeprefix("Bearer ")
                    if token in fake.tokens:
                        self.answer(200, {"id": 4242, "login": fake.login, "name": "Octo Cat"})
                    else:
                        self.answer(401, {"error": "invalid_token"})
                else:
                    self.answer(404)

            def do_POST(self):
                form = dict(urllib.parse.parse_qsl(self.rfile.read(int(self.headers["Content-Length"])).decode()))
                if form.get("client_secret") != "hub-secret" or fake.codes.pop(form.get("code"), None) != form.get("redirect_uri"):
                    self.answer(200, {"error": "bad_verification_code"})
                    return
                token = secrets.token_urlsafe(16)
                fake.tokens[token] = True
                self.answer(200, {"access_token": token, "token_type": "bearer"})

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}"
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    def stop(self):
        self.http.shutdown()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def hub_server(tmp_path):
    hub = FakeHub()
    port = free_port()
    running = Server(tmp_path, port=port, env={
        "QUIZBOX_PUBLIC_URL": f"http://127.0.0.1:{port}",
        "QUIZBOX_OAUTH_PROVIDERS": "fakehub",
        "QUIZBOX_OAUTH_FAKEHUB_DISPLAY_NAME": "FakeHub",
        "QUIZBOX_OAUTH_FAKEHUB_CLIENT_ID": "hub-client",
        "QUIZBOX_OAUTH_FAKEHUB_CLIENT_SECRET": "hub-secret",
        "QUIZBOX_OAUTH_FAKEHUB_AUTHORIZE_URL": hub.url + "/authorize",
        "QUIZBOX_OAUTH_FAKEHUB_TOKEN_URL": hub.url + "/token",
        "QUIZBOX_OAUTH_FAKEHUB_USERINFO_URL": hub.url + "/user",
        "QUIZBOX_OAUTH_FAKEHUB_USERNAME_CLAIM": "login",
        "QUIZBOX_OAUTH_FAKEHUB_SUBJECT_CLAIM": "id",
    })
    yield running, hub
    running.stop()
    hub.stop()
    print(f"--- quizbox serve log ({running.url}) ---\n" + "".join(running.log))


def test_a_player_signs_in_with_a_provider_chooses_a_username_and_sets_a_password(hub_server, browser):
    server, hub = hub_server
    server.create_user("octo", "someone-elses-password")  # the provider's username is taken here
    driver = open_browser(browser, server, javascript=False)
    driver.get(server.url + "/login")
    click_id(driver, "sign-in-fakehub")
    assert by_id(driver, "choose-reason").text.startswith("The username octo is taken here.")
    type_into(driver, username="octo_cat")
    click_id(driver, "choose-username-button")
    assert driver.current_url.endswith("/home"), driver.page_source
    driver.get(server.url + "/profile")
    assert by_id(driver, "profile-username").text == "octo_cat"
    assert "FakeHub: linked as octo" in by_id(driver, "linked-fakehub").text
    assert not driver.find_elements(By.ID, "old_password")
    type_into(driver, new_password="a password of mine", new_password_confirm="a password of mine")
    click_id(driver, "change-password-button")
    assert "Your password is set" in by_id(driver, "password-feedback").text
    # Signing in again with the provider finds the same account.
    click_id(driver, "logout-button")
    click_id(driver, "sign-in-fakehub")
    driver.get(server.url + "/profile")
    assert by_id(driver, "profile-username").text == "octo_cat"
