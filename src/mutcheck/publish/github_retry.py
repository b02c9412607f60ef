"""When a GitHub request is tried again and how long to wait first: rate limits as GitHub documents them.

GitHub's rules ("Rate limits for the REST API"): a rate-limited answer is a 429, or a 403 that says so;
with `retry-after`, wait that many seconds; with `x-ratelimit-remaining: 0`, wait until
`x-ratelimit-reset`; otherwise wait at least a minute, longer each time. Server errors back off
exponentially. No wait is ever longer than the cap: the request fails with the time the limit resets.
"""

import json
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Self

from github import GithubException
from urllib3 import Retry
from urllib3.response import HTTPResponse

RATE_LIMIT_STATUSES = (403, 429)
SECONDARY_WAIT = 60.0  # "Otherwise, wait for at least one minute before retrying."


class RateLimitTooLong(Exception):
    """GitHub asks for a longer wait than mutcheck allows."""

    def __init__(self, wait: float, cap: float, resets_at: datetime) -> None:
        super().__init__(f"wait {wait:.0f} s, cap {cap:.0f} s")
        self.wait, self.cap, self.resets_at = wait, cap, resets_at


class GitHubRetry(Retry):
    """urllib3's Retry, waiting as GitHub asks (at most `cap` seconds each time) through `sleep`."""

    def __init__(self, cap: float, sleep: Callable[[float], None] = time.sleep, **kwargs: Any) -> None:
        kwargs.setdefault("status_forcelist", [*range(500, 600), *RATE_LIMIT_STATUSES])
        # POST and PATCH too: GitHub did not act on a rate-limited request, and rarely on one that got a 5xx.
        kwargs.setdefault("allowed_methods", Retry.DEFAULT_ALLOWED_METHODS | {"POST", "PATCH"})
        super().__init__(**kwargs)
        self.cap, self._sleep = cap, sleep
        self.wait: float | None = None  # set by increment() on the Retry that sleeps before the next try

    def new(self, **kw: Any) -> Self:
        return super().new(**{"cap": self.cap, "sleep": self._sleep, **kw})

    def increment(
        self,
        method: str | None = None,
        url: str | None = None,
        response: HTTPResponse | None = None,
        error: Exception | None = None,
        _pool: Any = None,
        _stacktrace: Any = None,
    ) -> "GitHubRetry":
        wait = None if response is None else self._wait_for(response)
        retry = super().increment(method, url, response, error, _pool, _stacktrace)
        retry.wait = wait
        return retry

    def sleep(self, response: HTTPResponse | None = None) -> None:
        self._sleep(self.get_backoff_time() if self.wait is None else self.wait)

    def _wait_for(self, response: HTTPResponse) -> float | None:
        """The wait GitHub asks for before this answer's request may be sent again (None: the usual backoff)."""
        headers = response.headers
        if response.status == 403 and "Retry-After" not in headers and headers.get("X-RateLimit-Remaining") != "0":
            _raise_unless_rate_limit(response)
        now = time.time()
        if retry_after := headers.get("Retry-After"):
            wait = self.parse_retry_after(retry_after)
        elif response.status in RATE_LIMIT_STATUSES and headers.get("X-RateLimit-Remaining") == "0":
            reset = headers.get("X-RateLimit-Reset", "")
            # at least a second: the reset is in whole seconds, and may be this one
            wait = max(1.0, int(reset) - now) if reset.isdigit() else SECONDARY_WAIT
        elif response.status in RATE_LIMIT_STATUSES:
            earlier = sum(1 for attempt in self.history if attempt.status in RATE_LIMIT_STATUSES)
            wait = SECONDARY_WAIT * 2**earlier
        else:
            return None
        if wait > self.cap:
            raise RateLimitTooLong(wait, self.cap, datetime.fromtimestamp(round(now + wait), UTC))
        return wait


def _raise_unless_rate_limit(response: HTTPResponse) -> None:
    """A 403 without rate-limit headers is a rate limit if its message says so; any other 403 is GitHub's
    refusal, raised here as PyGithub would raise it (the body is read, so the answer cannot go back to it)."""
    text = response.data.decode("utf-8", "replace")
    try:
        data = json.loads(text)
    except ValueError:
        data = {"data": text}  # how PyGithub wraps an answer that is not JSON
    message = data.get("message") if isinstance(data, dict) else None
    if not (isinstance(message, str) and "rate limit" in message.lower()):
        raise GithubException(response.status, data, {name.lower(): value for name, value in response.headers.items()})
