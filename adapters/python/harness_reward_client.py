"""Client of the harness-r1 reward service (`harness-r1 serve-reward`), standard library only.

The engine adapters next to this file import it; it is not an adapter itself. A rerun of the frozen target
takes minutes, so every request is a job: one POST /v1/rewards with `wait_ms`, then GET /v1/jobs/{id}?wait_ms=…
until the job is done. No single HTTP request lasts longer than `wait_ms` plus a margin, so no trainer-side
HTTP timeout ever cuts a rerun, and a retried request never starts a second one (the service is idempotent).

Environment:
  HARNESS_REWARD_URL        the service (default http://127.0.0.1:8765)
  HARNESS_REWARD_WAIT_MS    how long one request may wait for a job on the server (default 20000)
  HARNESS_REWARD_TIMEOUT_S  how long one call waits in total for its jobs (default 4200, the release's reward
                            timeout); a job still unfinished then comes back as status "missing_evaluation"
"""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from typing import Any, Dict, List, Sequence, Tuple

DEFAULT_URL = "http://127.0.0.1:8765"
# Statuses whose patch passed validation (the reward decision's `valid_patch`).
VALID_PATCH_STATUSES = ("scored", "inert", "missing_evaluation")
# Items per POST, well under the service's request size limit.
CHUNK = 32


class RewardServiceError(RuntimeError):
    """The service refused a request (4xx): a row or setup problem that no retry fixes."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(f"reward service refused the request ({status} {code}): {message}")
        self.status, self.code = status, code


def service_url() -> str:
    return os.environ.get("HARNESS_REWARD_URL", DEFAULT_URL).rstrip("/")


def _wait_ms() -> int:
    return max(0, int(os.environ.get("HARNESS_REWARD_WAIT_MS", "20000")))


def _total_timeout_s() -> float:
    return float(os.environ.get("HARNESS_REWARD_TIMEOUT_S", "4200"))


def parse_metadata(value: Any) -> Dict[str, Any]:
    """A row's metadata from a dict or from the JSON text the TRL, verl and OpenRLHF rows carry."""
    if isinstance(value, dict):
        return value
    if isinstance(value, (str, bytes)) and value:
        parsed = json.loads(value)
        if isinstance(parsed, dict):
            return parsed
    raise ValueError(f"row metadata is neither an object nor its JSON text: {type(value).__name__}")


def _http(method: str, path: str, body: Any, deadline: float, allow_404: bool = False) -> Tuple[int, Any]:
    """One JSON request; connection failures, 5xx and 429 are retried until the deadline, other 4xx raise."""
    data = None if body is None else json.dumps(body).encode("utf-8")
    pause = 0.5
    while True:
        req = urllib.request.Request(service_url() + path, data=data, method=method, headers={"content-type": "application/json"})
        retry_after = None
        try:
            with urllib.request.urlopen(req, timeout=_wait_ms() / 1000 + 60) as resp:
                return resp.status, json.loads(resp.read().decode("utf-8"))
        except urllib.error.HTTPError as err:
            text = err.read().decode("utf-8", "replace")
            if err.code == 429:
                retry_after = float(err.headers.get("Retry-After") or 1)
            elif err.code < 500:
                payload = _json_or_none(text)
                if err.code == 404 and allow_404:
                    return 404, payload
                detail = (payload or {}).get("error") or {}
                raise RewardServiceError(err.code, str(detail.get("code", "http_error")), str(detail.get("message", text)))
        except (urllib.error.URLError, OSError, ValueError):
            pass  # the service is restarting or the line dropped: finished results are persisted, ask again
        if time.monotonic() >= deadline:
            raise TimeoutError(f"reward service at {service_url()} did not answer {method} {path} in time")
        time.sleep(min(max(retry_after if retry_after is not None else pause, 0.05), 30))
        pause = min(pause * 2, 10)


def _json_or_none(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _unfinished(job_id: str, why: str) -> Dict[str, Any]:
    return {"job_id": job_id, "state": "done", "reward": 0.0, "status": "missing_evaluation", "scored": False, "delta": None,
            "baseline_pass": None, "patched_pass": None, "rescued": 0, "regressed": 0, "eval_key": job_id, "cached": False, "error": why}


def score_items(items: Sequence[Tuple[Dict[str, Any], str]]) -> List[Dict[str, Any]]:
    """Results of (metadata, response) pairs, in order, each a done service Result."""
    if not items:
        return []
    deadline = time.monotonic() + _total_timeout_s()
    body = [{"metadata": m, "response": r} for m, r in items]
    results: List[Dict[str, Any]] = []
    for start in range(0, len(body), CHUNK):  # every job is queued before any is waited for
        wait = _wait_ms() if start + CHUNK >= len(body) else 0
        _, answer = _http("POST", "/v1/rewards", {"items": body[start:start + CHUNK], "wait_ms": wait}, deadline)
        results.extend(answer["results"])
    for i, result in enumerate(results):
        while result.get("state") != "done":
            if time.monotonic() >= deadline:
                result = _unfinished(str(result.get("job_id")), "the adapter stopped waiting (HARNESS_REWARD_TIMEOUT_S)")
                break
            status, result = _http("GET", f"/v1/jobs/{result['job_id']}?wait_ms={_wait_ms()}", None, deadline, allow_404=True)
            if status == 404:  # the service forgot an unfinished job (restart): submitting again is idempotent
                _, again = _http("POST", "/v1/rewards", {"items": [body[i]], "wait_ms": _wait_ms()}, deadline)
                result = again["results"][0]
        results[i] = result
    return results


def is_missing(result: Dict[str, Any]) -> bool:
    """Not a result (`scored` false: a missing evaluation, or a baseline with nothing scored): its 0.0 measures nothing."""
    return result.get("scored") is False or result.get("status") in ("missing_evaluation", "no_scored_baseline")
