"""A small fake of GitHub's REST API on 127.0.0.1, enough for PyGithub to post and edit comments.

It answers with GitHub's own examples from its OpenAPI description (every field the real API returns),
overriding only what the tests control; paginates with Link headers; records every request; and can be
told to fail the next matching requests. Every request and every answer is checked against the description
(`github_contract`); leaving the fake with a violation recorded fails the test.
"""

import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlparse

from tests.mutcheck import github_contract
from tests.mutcheck.github_contract import example

OWNER, NAME, NUMBER = "octo", "widgets", 7
HEAD_SHA = "a" * 40
DOCUMENTATION = "https://docs.github.com/rest"
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
    errors: list[Any] = field(default_factory=list)  # GitHub's reasons in a 422: strings or {"code", "message"}

    def payload(self) -> Any:
        """What GitHub's error answers look like; `raw` is sent unchecked, being deliberately malformed."""
        if self.raw is not None:
            return self.raw
        error = {"message": self.message, "documentation_url": DOCUMENTATION}
        return {**error, "errors": self.errors} if self.errors else error


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
        self.violations: list[str] = []  # of GitHub's OpenAPI description, by a request or by an answer
        github_contract.description()  # loaded (or the test skipped, without npm) before the first request
        github_contract.graphql_schema()
        self.login = "mutcheck-bot"
        self.head_sha = HEAD_SHA
        self.files = [{"filename": "src/tiny.py", "patch": PATCH}]
        self._next_id = 1000
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.resolved_threads: set[str] = set()  # review threads are one per review comment, by its id
        # GitHub gates resolving and reopening threads on the token's `contents: write`: False answers as it
        # does for a token without it.
        self.may_resolve_threads = True

    def __enter__(self) -> "FakeGitHub":
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        if self.violations:
            raise AssertionError("GitHub's OpenAPI description is violated:\n" + "\n".join(self.violations))

    # -- state helpers -------------------------------------------------------------------------
    def add_comment(self, body: str, login: str) -> dict[str, Any]:
        with self._lock:
            self._next_id += 1
            comment_id = self._next_id
        repo = f"{self.base}/repos/{OWNER}/{NAME}"
        comment = {
            **example("issue-comment"),
            "id": comment_id,
            "node_id": f"IC_{comment_id}",
            "url": f"{repo}/issues/comments/{comment_id}",
            "html_url": f"https://github.example/{OWNER}/{NAME}/pull/{NUMBER}#issuecomment-{comment_id}",
            "issue_url": f"{repo}/issues/{NUMBER}",
            "body": body,
            "user": self.user_json(login),
            "created_at": TIMESTAMP.format(len(self.comments) % 60),
            "updated_at": TIMESTAMP.format(len(self.comments) % 60),
        }
        self.comments.append(comment)
        return comment

    def add_review_comment(self, path: str, line: int, body: str, login: str) -> dict[str, Any]:
        with self._lock:
            self._next_id += 1
            comment_id = self._next_id
        # The example is a reply on a multi-line range; ours is a single-line comment of the head commit.
        comment = {
            **example("pull-request-review-comment-items"),
            "start_line": None,
            "original_start_line": None,
            "start_side": None,
            "original_line": line,
            "commit_id": self.head_sha,
            "original_commit_id": self.head_sha,
            "pull_request_review_id": len(self.reviews) + 1,
            "id": comment_id,
            "node_id": f"PRRC_{comment_id}",
            "url": f"{self.base}/repos/{OWNER}/{NAME}/pulls/comments/{comment_id}",
            "path": path,
            "line": line,
            "side": "RIGHT",
            "body": body,
            "user": self.user_json(login),
            "created_at": TIMESTAMP.format(0),
            "updated_at": TIMESTAMP.format(0),
            "pull_request_url": f"{self.base}/repos/{OWNER}/{NAME}/pulls/{NUMBER}",
        }
        del comment["in_reply_to_id"]
        self.review_comments.append(comment)
        return comment

    def mark_outdated(self, comment: dict[str, Any]) -> None:
        """What GitHub does to a review comment once a push changes its line: it no longer has a current one."""
        comment["line"] = None
        comment["position"] = None

    def thread_id(self, comment: dict[str, Any]) -> str:
        return f"PRRT_{comment['id']}"

    def thread_resolved(self, comment: dict[str, Any]) -> bool:
        return self.thread_id(comment) in self.resolved_threads

    def in_diff(self, path: str, line: int) -> bool:
        """Whether a hunk of the pull request's diff of `path` covers `line` on the new side."""
        for changed in self.files:
            if changed["filename"] != path or not changed.get("patch"):
                continue
            for start, count in re.findall(r"^@@ -\S+ \+(\d+)(?:,(\d+))? @@", changed["patch"], re.MULTILINE):
                if int(start) <= line < int(start) + int(count or 1):
                    return True
        return False

    def writes(self) -> list[tuple[str, str, Any]]:
        return [request for request in self.requests if request[0] != "GET"]

    # -- JSON ----------------------------------------------------------------------------------
    def user_json(self, login: str) -> dict[str, Any]:
        return {
            **example("issue-comment")["user"],
            "login": login,
            "id": 1,
            "type": "Bot",
            "url": f"{self.base}/users/{login}",
        }

    # The description's examples lack a few fields its own schemas require (`language`, a team's `type`,
    # `user_view_type`); each answer sets them, and a repository that is no fork has no `source`/`parent`.
    def repo_json(self) -> dict[str, Any]:
        repository = example("full-repository-default-response")
        del repository["source"], repository["parent"]
        return {
            **repository,
            "fork": False,
            "language": "Python",
            "id": 1,
            "name": NAME,
            "full_name": f"{OWNER}/{NAME}",
            "url": f"{self.base}/repos/{OWNER}/{NAME}",
            "html_url": f"https://github.example/{OWNER}/{NAME}",
            "owner": {**self.user_json(OWNER), "id": 2, "type": "Organization"},
            "private": False,
        }

    def files_json(self) -> list[dict[str, Any]]:
        return [{**example("diff-entry-items"), **changed} for changed in self.files]

    def pull_json(self) -> dict[str, Any]:
        repo = {**self.repo_json(), "url": f"{self.links}/repos/{OWNER}/{NAME}"}
        pull = example("pull-request")
        return {
            **pull,
            "id": 77,
            "number": NUMBER,
            "state": "open",
            "title": "Change clamp",
            "url": f"{repo['url']}/pulls/{NUMBER}",
            "html_url": f"https://github.example/{OWNER}/{NAME}/pull/{NUMBER}",
            "requested_teams": [],
            "issue_url": f"{repo['url']}/issues/{NUMBER}",
            "comments_url": f"{repo['url']}/issues/{NUMBER}/comments",
            "review_comments_url": f"{repo['url']}/pulls/{NUMBER}/comments",
            "head": {**pull["head"], "sha": self.head_sha, "ref": "feature", "repo": repo, "label": "octo:feature"},
            "base": {**pull["base"], "sha": "b" * 40, "ref": "main", "repo": repo, "label": "octo:main"},
            "user": {**self.user_json("contributor"), "id": 3, "type": "User"},
        }

    # -- HTTP ----------------------------------------------------------------------------------
    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_: object) -> None:
                pass

            def _send(
                self,
                status: int,
                payload: Any,
                headers: dict[str, str] | None = None,
                checked: bool = True,
                injected: bool = False,
            ) -> None:
                if isinstance(payload, bytes):
                    data = payload
                else:
                    data = b"" if payload is None else json.dumps(payload).encode()
                # One value per header: a test's own (a rate limit's remaining 0) replaces the default.
                defaults = {"Content-Type": "application/json; charset=utf-8", "X-RateLimit-Limit": "5000"}
                headers = {**defaults, "X-RateLimit-Remaining": "4999", **(headers or {})}
                if checked:  # before answering, so that a violation is recorded before the client goes on
                    fake.violations.extend(
                        github_contract.response_violations(
                            self.command,
                            urlparse(self.path).path,
                            status,
                            headers["Content-Type"],
                            data,
                            headers,
                            injected,
                        )
                    )
                self.send_response(status)
                self.send_header("Content-Length", str(len(data)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            def _handle(self, method: str) -> None:
                url = urlparse(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                body = json.loads(raw) if length else None
                fake.requests.append((method, url.path, body))
                fake.violations.extend(github_contract.request_violations(method, url.path, parse_qs(url.query), raw))
                fake.request_headers.append(dict(self.headers.items()))
                for failure in fake.failures:
                    if failure.times and failure.method == method and re.fullmatch(failure.path, url.path):
                        failure.times -= 1
                        payload = failure.payload()
                        self._send(failure.status, payload, failure.headers, checked=failure.raw is None, injected=True)
                        return
                status, payload, headers = fake.route(method, url.path, parse_qs(url.query), body)
                if (method, url.path) == ("POST", github_contract.GRAPHQL):
                    answer = json.dumps(payload).encode()
                    fake.violations.extend(github_contract.graphql_response_violations(raw, status, answer))
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
            user = example("private-user-response-with-public-and-private-profile-information")
            return 200, {**user, **self.user_json(self.login), "user_view_type": "private"}, {}
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
            return self._page(self.files_json(), path, query)
        if (method, path) == ("GET", f"{repo}/pulls/{NUMBER}/comments"):
            return self._page(self.review_comments, path, query)
        if method == "DELETE" and (match := re.fullmatch(rf"{repo}/pulls/comments/(\d+)", path)):
            comment = next((c for c in self.review_comments if c["id"] == int(match.group(1))), None)
            if comment is None:
                return 404, {"message": "Not Found"}, {}
            self.review_comments.remove(comment)
            return 204, None, {}
        if (method, path) == ("POST", "/graphql"):
            return 200, self.graphql(body["query"], body["variables"]), {}
        if match := re.fullmatch(rf"{repo}/pulls/comments/(\d+)", path):
            comment = next(c for c in self.review_comments if c["id"] == int(match.group(1)))
            comment["body"] = body["body"]
            return 200, comment, {}
        if (method, path) == ("POST", f"{repo}/pulls/{NUMBER}/reviews"):
            if outside := [item for item in body["comments"] if not self.in_diff(item["path"], item["line"])]:
                reason = "Pull request review thread line must be part of the diff"
                return 422, {"message": "Unprocessable Entity", "errors": [reason] * len(outside)}, {}
            for item in body["comments"]:
                self.add_review_comment(item["path"], item["line"], item["body"], self.login)
            review = {
                **example("pull-request-review"),
                "id": len(self.reviews) + 1,
                "body": body["body"],
                "state": "COMMENTED",
                "commit_id": body.get("commit_id"),
                "user": self.user_json(self.login),
            }
            self.reviews.append(review)
            return 200, review, {}
        if match := re.fullmatch(rf"{repo}/commits/([0-9a-f]{{40}})", path):
            commit = {
                **example("commit"),
                "sha": match.group(1),
                "url": f"{self.base}{path}",
                "files": self.files_json(),
            }
            return 200, commit, {}
        return 404, {"message": "Not Found", "documentation_url": DOCUMENTATION}, {}

    # -- GraphQL: the pull request's review threads, and resolving them ---------------------------
    def graphql(self, query: str, variables: dict[str, Any]) -> dict[str, Any]:
        if mutation := re.search(r"\b(resolveReviewThread|unresolveReviewThread)\(input: \$input\)", query):
            if not self.may_resolve_threads:
                refused = {"type": "FORBIDDEN", "message": "Resource not accessible by integration"}
                return {"data": {mutation.group(1): None}, "errors": [refused]}
            thread_id = variables["input"]["threadId"]
            if thread_id not in {self.thread_id(comment) for comment in self.review_comments}:
                message = f"Could not resolve to a node with the global id of '{thread_id}'"
                return {"data": {mutation.group(1): None}, "errors": [{"type": "NOT_FOUND", "message": message}]}
            if mutation.group(1) == "resolveReviewThread":
                self.resolved_threads.add(thread_id)
            else:
                self.resolved_threads.discard(thread_id)
            thread = {"id": thread_id, "isResolved": thread_id in self.resolved_threads}
            return {"data": {mutation.group(1): {"thread": thread}}}
        if "reviewThreads(first: $first, after: $after)" in query:
            if (variables["owner"], variables["name"], variables["number"]) != (OWNER, NAME, NUMBER):
                return {"data": {"repository": None}, "errors": [{"type": "NOT_FOUND", "message": "no such pull"}]}
            return {"data": {"repository": {"pullRequest": {"reviewThreads": self._threads_page(variables)}}}}
        return {"errors": [{"message": f"the fake does not know this query: {query}"}]}

    def _threads_page(self, variables: dict[str, Any]) -> dict[str, Any]:
        # Threads in the order their comments were made; a cursor is the index of the next one.
        start = int(variables.get("after") or 0)
        end = start + variables["first"]
        threads = [
            {
                "id": self.thread_id(comment),
                "isResolved": self.thread_resolved(comment),
                "comments": {"nodes": [{"databaseId": comment["id"]}]},
            }
            for comment in self.review_comments[start:end]
        ]
        page_info = {"hasNextPage": end < len(self.review_comments), "endCursor": str(end)}
        return {"pageInfo": page_info, "nodes": threads}
