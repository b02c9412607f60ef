"""GitHub's official OpenAPI description, loaded once: the examples the fake answers with, and the check of
every request the fake receives and every answer it sends.

The description is `api.github.com.json` from the pinned npm package `@octokit/openapi` (its `$ref`s are
resolved as needed; the dereferenced variant is over 70 MB and slower to load). Requests to `/graphql`,
which the REST description does not cover, are checked against GitHub's GraphQL schema (`schema.graphql`
of the pinned `@octokit/graphql-schema`): the document, its variables, and the answer's data.
"""

import copy
import functools
import json
import re
from dataclasses import dataclass
from typing import Any

import graphql
from graphql.execution.values import get_variable_values
from openapi_core import Config, OpenAPI
from openapi_core.templating.responses.exceptions import ResponseNotFound
from openapi_core.testing import MockRequest, MockResponse
from openapi_schema_validator import OAS30Validator

from tests.mutcheck.npm_packages import npm_package

SERVER = "https://api.github.com"  # the description's server; only the path of a request is matched against it

# Where the description is narrower than what GitHub answers; each is widened here, and only these.
# - A review comment whose line is no longer in the diff ("outdated") has `line` and `position` null.
NULLABLE = {"pull-request-review-comment": ("line", "position")}
# - A single-line review comment has `start_side` null: the description marks it nullable, but its enum
#   leaves out null, which OpenAPI 3.0.3 requires of a nullable enum.
NULL_IN_ENUM = {"pull-request-review-comment": ("start_side",)}
# - Any operation answers 401 (bad token), 403 (no permission, rate limit), 404 (gone, or not visible to the
#   token), 422, 429 (rate limit) and 5xx with GitHub's error object, though the description lists only some:
#   allowed where a test injects the failure; the fake's own answers keep to the statuses documented.
ANY_OPERATION_ERRORS = {401, 403, 404, 422, 429, 500, 502, 503, 504}


@dataclass(frozen=True)
class Operation:
    method: str
    template: str
    pattern: re.Pattern[str]
    operation_id: str


@functools.cache
def description() -> dict[str, Any]:
    """The parsed description, with the known gaps (NULLABLE, NULL_IN_ENUM) widened."""
    path = npm_package("@octokit/openapi") / "generated" / "api.github.com.json"
    spec = json.loads(path.read_text(encoding="utf-8"))
    for schema, fields in NULLABLE.items():
        for name in fields:
            spec["components"]["schemas"][schema]["properties"][name]["nullable"] = True
    for schema, fields in NULL_IN_ENUM.items():
        for name in fields:
            spec["components"]["schemas"][schema]["properties"][name]["enum"].append(None)
    return spec


@functools.cache
def _openapi() -> OpenAPI:
    # The description is GitHub's own; validating it as a document would take long and tell us nothing.
    return OpenAPI.from_dict(description(), config=Config(spec_validator_cls=None))


@functools.cache
def _operations() -> tuple[Operation, ...]:
    found = []
    for template, item in description()["paths"].items():
        pattern = re.compile(re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)))
        for method, operation in item.items():
            if isinstance(operation, dict) and "operationId" in operation:
                found.append(Operation(method.upper(), template, pattern, operation["operationId"]))
    # A literal segment wins over a parameter (`/pulls/comments/1` is not pull request "comments").
    return tuple(sorted(found, key=lambda op: op.template.count("{")))


def operation(method: str, path: str) -> Operation | None:
    """The documented operation that `method` on `path` is, if any."""
    return next((op for op in _operations() if op.method == method and op.pattern.fullmatch(path)), None)


def example(name: str) -> dict[str, Any]:
    """A fresh copy of the description's example `name` (components/examples); of a list, its first item."""
    value = description()["components"]["examples"][name]["value"]
    return copy.deepcopy(value[0] if isinstance(value, list) else value)


def _reasons(error: Exception) -> list[str]:
    """Each field and reason in an openapi-core error (its schema errors carry where in the JSON they are)."""
    reasons = []
    cause = error.__cause__
    for schema_error in getattr(cause, "schema_errors", None) or getattr(error, "schema_errors", None) or ():
        where = "/".join(str(part) for part in schema_error.absolute_path) or "(the whole body)"
        reasons.append(f"{where}: {schema_error.message}")
    if not reasons and hasattr(error, "location"):  # a path or query parameter
        reasons.append(f"{error.location} parameter {error.name}: {cause or error!r}")
    if not reasons:
        reasons.append(f"{error!r}" + (f" ({cause!r})" if cause else ""))
    return reasons


GRAPHQL = "/graphql"


@functools.cache
def graphql_schema() -> graphql.GraphQLSchema:
    # GitHub's own schema breaks two of the SDL rules graphql-core enforces (a field defined twice, a
    # deprecated field implementing one that is not): taken as GitHub publishes it, queries still checked.
    sdl = (npm_package("@octokit/graphql-schema") / "schema.graphql").read_text("utf-8")
    return graphql.build_schema(sdl, assume_valid=True, assume_valid_sdl=True)


def _graphql_document(body: bytes) -> tuple[graphql.DocumentNode, dict[str, Any]]:
    payload = json.loads(body)
    return graphql.parse(payload["query"]), payload.get("variables") or {}


def graphql_request_violations(body: bytes) -> list[str]:
    """What is wrong with a GraphQL request, by GitHub's schema: the document, then its variables."""
    try:
        document, variables = _graphql_document(body)
    except (ValueError, KeyError, graphql.GraphQLError) as error:
        return [f"POST {GRAPHQL}: not a GraphQL request ({error})"]
    schema = graphql_schema()
    reasons = [error.message for error in graphql.validate(schema, document)]
    for definition in document.definitions:
        if isinstance(definition, graphql.OperationDefinitionNode) and not reasons:
            coerced = get_variable_values(schema, definition.variable_definitions or (), variables)
            reasons += [error.message for error in coerced] if isinstance(coerced, list) else []
    return [f"POST {GRAPHQL} request: {reason}" for reason in reasons]


def graphql_response_violations(request: bytes, status: int, body: bytes) -> list[str]:
    """What is wrong with the answer's data, by GitHub's schema: the request's own document executed
    over that data must give it back without an error (a missing non-null field, a wrong type)."""
    try:
        document, variables = _graphql_document(request)
        payload = json.loads(body)
    except (ValueError, KeyError, graphql.GraphQLError):
        return []  # the request is already reported
    if status != 200 or payload.get("data") is None or payload.get("errors"):
        return []  # GitHub's errors carry no data to check
    result = graphql.execute(graphql_schema(), document, root_value=payload["data"], variable_values=variables)
    reasons = [error.message for error in result.errors or ()]
    if not reasons and result.data != payload["data"]:
        reasons.append("the data has fields the query did not ask for")
    return [f"POST {GRAPHQL} answer: {reason}" for reason in reasons]


def request_violations(method: str, path: str, query: dict[str, list[str]], body: bytes) -> list[str]:
    """What is wrong with a request, by the description: an unknown operation, a parameter, the JSON body."""
    if (method, path) == ("POST", GRAPHQL):
        return graphql_request_violations(body)
    op = operation(method, path)
    if op is None:
        return [f"{method} {path}: no operation in GitHub's REST API has this method and path"]
    args = {name: values[-1] for name, values in query.items()}
    request = MockRequest(SERVER, method.lower(), path, args=args, data=body or None, content_type="application/json")
    try:
        _openapi().validate_request(request)
    except Exception as error:  # openapi-core raises one of many error types; each is a violation to report
        return [f"{method} {path} ({op.operation_id}) request {reason}" for reason in _reasons(error)]
    return []


def response_violations(
    method: str, path: str, status: int, content_type: str, body: bytes, headers: dict[str, str], injected: bool
) -> list[str]:
    """What is wrong with an answer to a request, by the description: a status the operation does not
    document (beyond ANY_OPERATION_ERRORS, for an `injected` failure), a body that is not that status's schema."""
    op = operation(method, path)
    if op is None:
        return []  # the request is already reported
    request = MockRequest(SERVER, method.lower(), path)
    response = MockResponse(body, status_code=status, content_type=content_type, headers=headers)
    try:
        _openapi().validate_response(request, response)
    except ResponseNotFound:
        if not (injected and status in ANY_OPERATION_ERRORS):
            return [f"{method} {path} ({op.operation_id}) answered {status}, which the operation does not document"]
        return _error_object_violations(f"{method} {path} ({op.operation_id}) answer {status}", body)
    except Exception as error:  # as in request_violations
        return [f"{method} {path} ({op.operation_id}) answer {status} {reason}" for reason in _reasons(error)]
    return []


def _error_object_violations(where: str, body: bytes) -> list[str]:
    schema = description()["components"]["schemas"]["basic-error"]
    try:
        payload = json.loads(body)
    except ValueError as error:
        return [f"{where}: not JSON ({error})"]
    return [
        f"{where} {'/'.join(map(str, e.absolute_path)) or '(the whole body)'}: {e.message}"
        for e in OAS30Validator(schema).iter_errors(payload)
    ]
