"""A small fake of GitHub's REST API on 127.0.0.1, enough for PyGithub to post and edit comments.

It answers with realistic JSON (every object carries its `url`), paginates with Link headers,
records every request, and can be told to fail the next matching requests.
"""

import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlparse

OWNER, NAME, NUMBER = "octo", "widgets", 7
HEAD_SHA = "a" * 40
TIMESTAMP = "2026-11-29T12:00:{:02}Z"
# The pull request changes line 7 of src/tiny.py (lines 4-9 are in its diff).
PATCH = "\n".join(
    [
        "@@ -4,6 +4,6 @@",
        " def clamp(value, low, high):",
        "     if value < low:",
        "         return low",
        "-    if value > high:",
        "+    if value > high:  # edited",
        "         return high",
        "     return value",
    ]
)


@dataclass
class Failure:
    method: str
    path: str  # a regular expression matched against the request path
    status: int
    times: int
    message: str = "failure"
    headers: dict[str, str] = field(default_factory=dict)
    raw: bytes | None = None  # sent as is instead of {"message": …}: truncated JSON, an HTML page


def refused_for_lack_of(method: str, path: str, permissions: str) -> Failure:
    """GitHub's 403 when the token lacks a permission: `permissions` as its x-accepted-github-permissions
    header names them (e.g. `contents=read`, or alternatives like `issues=write; pull_requests=write`)."""
    headers = {"X-Accepted-GitHub-Permissions": permissions}
    return Failure(method, path, 403, 1, "Resource not accessible by integration", headers)


class FakeGitHub:
    def __init__(self) -> None:
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.links = self.base  # where the URLs inside answers point (another host to test PyGithub's check)
        self.requests: list[tuple[str, str, Any]] = []
        self.request_headers: list[dict[str, str]] = []  # in the order of `requests`
        self.comments: list[dict[str, Any]] = []
        self.review_comments: list[dict[str, Any]] = []
        self.reviews: list[dict[str, Any]] = []
        self.failures: list[Failure] = []
        self.login = "mutcheck-bot"
        self.head_sha = HEAD_SHA
        self.files = [{"filename": "src/tiny.py", "patch": PATCH}]
        self._next_id = 1000
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "FakeGitHub":
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    # -- state helpers -------------------------------------------------------------------------
    def add_comment(self, body: str, login: str) -> dict[str, Any]:
        with self._lock:
            self._next_id += 1
            comment_id = self._next_id
        repo = f"{self.base}/repos/{OWNER}/{NAME}"
        comment = {
            "id": comment_id,
            "node_id": f"IC_{comment_id}",
            "url": f"{repo}/issues/comments/{comment_id}",
            "html_url": f"https://github.example/{OWNER}/{NAME}/pull/{NUMBER}#issuecomment-{comment_id}",
            "issue_url": f"{repo}/issues/{NUMBER}",
            "body": body,
            "user": {"login": login, "id": 1, "type": "Bot", "url": f"{self.base}/users/{login}"},
            "created_at": TIMESTAMP.format(len(self.comments) % 60),
            "updated_at": TIMESTAMP.format(len(self.comments) % 60),
        }
        self.comments.append(comment)
        return comment

    def add_review_comment(self, path: str, line: int, body: str, login: str) -> dict[str, Any]:
        with self._lock:
            self._next_id += 1
            comment_id = self._next_id
        comment = {
            "id": comment_id,
            "url": f"{self.base}/repos/{OWNER}/{NAME}/pulls/comments/{comment_id}",
            "path": path,
            "line": line,
            "side": "RIGHT",
            "body": body,
            "user": {"login": login, "id": 1, "type": "Bot"},
            "created_at": TIMESTAMP.format(0),
            "updated_at": TIMESTAMP.format(0),
            "pull_request_url": f"{self.base}/repos/{OWNER}/{NAME}/pulls/{NUMBER}",
        }
        self.review_comments.append(comment)
        return comment

    def writes(self) -> list[tuple[str, str, Any]]:
        return [request for request in self.requests if request[0] != "GET"]

    # -- JSON ----------------------------------------------------------------------------------
    def repo_json(self) -> dict[str, Any]:
        return {
            "id": 1,
            "name": NAME,
            "full_name": f"{OWNER}/{NAME}",
            "url": f"{self.base}/repos/{OWNER}/{NAME}",
            "html_url": f"https://github.example/{OWNER}/{NAME}",
            "owner": {"login": OWNER, "id": 2, "type": "Organization"},
            "private": False,
        }

    def pull_json(self) -> dict[str, Any]:
        repo = {**self.repo_json(), "url": f"{self.links}/repos/{OWNER}/{NAME}"}
        return {
            "id": 77,
            "number": NUMBER,
            "state": "open",
            "title": "Change clamp",
            "url": f"{repo['url']}/pulls/{NUMBER}",
            "html_url": f"https://github.example/{OWNER}/{NAME}/pull/{NUMBER}",
            "issue_url": f"{repo['url']}/issues/{NUMBER}",
            "comments_url": f"{repo['url']}/issues/{NUMBER}/comments",
            "review_comments_url": f"{repo['url']}/pulls/{NUMBER}/comments",
            "head": {"sha": self.head_sha, "ref": "feature", "repo": repo, "label": "octo:feature"},
            "base": {"sha": "b" * 40, "ref": "main", "repo": repo, "label": "octo:main"},
            "user": {"login": "contributor", "id": 3},
        }

    # -- HTTP ----------------------------------------------------------------------------------
    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_: object) -> None:
                pass

            def _send(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
                if isinstance(payload, bytes):
                    data = payload
                else:
                    data = b"" if payload is None else json.dumps(payload).encode()
                headers = {"Content-Type": "application/json; charset=utf-8", **(headers or {})}
                self.send_response(status)
                self.send_header("Content-Length", str(len(data)))
                self.send_header("X-RateLimit-Limit", "5000")
                self.send_header("X-RateLimit-Remaining", headers.pop("X-RateLimit-Remaining", "4999"))  # once
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            def _handle(self, method: str) -> None:
                url = urlparse(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length)) if length else None
                fake.requests.append((method, url.path, body))
                fake.request_headers.append(dict(self.headers.items()))
                for failure in fake.failures:
                    if failure.times and failure.method == method and re.fullmatch(failure.path, url.path):
                        failure.times -= 1
                        payload = {"message": failure.message} if failure.raw is None else failure.raw
                        self._send(failure.status, payload, failure.headers)
                        return
                status, payload, headers = fake.route(method, url.path, parse_qs(url.query), body)
                self._send(status, payload, headers)

            def do_GET(self) -> None:
                self._handle("GET")

            def do_POST(self) -> None:
                self._handle("POST")

            def do_PATCH(self) -> None:
                self._handle("PATCH")

            def do_DELETE(self) -> None:
                self._handle("DELETE")

        return Handler

    def _page(self, items: list[Any], path: str, query: dict[str, list[str]]) -> tuple[int, Any, dict[str, str]]:
        per_page = int(query.get("per_page", ["30"])[0])
        page = int(query.get("page", ["1"])[0])
        last = max(1, -(-len(items) // per_page))
        links = []
        if page < last:
            links.append(f'<{self.base}{path}?per_page={per_page}&page={page + 1}>; rel="next"')
            links.append(f'<{self.base}{path}?per_page={per_page}&page={last}>; rel="last"')
        headers = {"Link": ", ".join(links)} if links else {}
        return 200, items[(page - 1) * per_page : page * per_page], headers

    def route(self, method: str, path: str, query: dict[str, list[str]], body: Any) -> tuple[int, Any, dict[str, str]]:
        repo = f"/repos/{OWNER}/{NAME}"
        if (method, path) == ("GET", "/user"):
            return 200, {"login": self.login, "id": 1, "url": f"{self.base}/users/{self.login}"}, {}
        if (method, path) == ("GET", repo):
            return 200, self.repo_json(), {}
        if (method, path) == ("GET", f"{repo}/pulls/{NUMBER}"):
            return 200, self.pull_json(), {}
        if (method, path) == ("GET", f"{repo}/issues/{NUMBER}/comments"):
            return self._page(self.comments, path, query)
        if (method, path) == ("POST", f"{repo}/issues/{NUMBER}/comments"):
            return 201, self.add_comment(body["body"], self.login), {}
        if match := re.fullmatch(rf"{repo}/issues/comments/(\d+)", path):
            comment = next((c for c in self.comments if c["id"] == int(match.group(1))), None)
            if comment is None:
                return 404, {"message": "Not Found"}, {}
            if method == "PATCH":
                comment["body"] = body["body"]
                return 200, comment, {}
            if method == "DELETE":
                self.comments.remove(comment)
                return 204, None, {}
        if (method, path) == ("GET", f"{repo}/pulls/{NUMBER}/files"):
            return self._page(self.files, path, query)
        if (method, path) == ("GET", f"{repo}/pulls/{NUMBER}/comments"):
            return self._page(self.review_comments, path, query)
        if match := re.fullmatch(rf"{repo}/pulls/comments/(\d+)", path):
            comment = next(c for c in self.review_comments if c["id"] == int(match.group(1)))
            comment["body"] = body["body"]
            return 200, comment, {}
        if (method, path) == ("POST", f"{repo}/pulls/{NUMBER}/reviews"):
            for item in body["comments"]:
                self.add_review_comment(item["path"], item["line"], item["body"], self.login)
            review = {
                "id": len(self.reviews) + 1,
                "body": body["body"],
                "state": "COMMENTED",
                "commit_id": body.get("commit_id"),
                "user": {"login": self.login},
            }
            self.reviews.append(review)
            return 200, review, {}
        if match := re.fullmatch(rf"{repo}/commits/([0-9a-f]{{40}})", path):
            return 200, {"sha": match.group(1), "url": f"{self.base}{path}"}, {}
        return 404, {"message": "Not Found", "documentation_url": "https://docs.github.com/rest"}, {}
