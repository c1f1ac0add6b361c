"""Harness-R1 reward for Relax and slime: `async def reward_func(args, samples)`, served by `harness-r1 serve-reward`.

Paste into the training script (rows from `harness-r1 export rl --format relax`, file rows.relax.jsonl):
  --prompt-data rows.relax.jsonl --input-key prompt --label-key label --metadata-key metadata --apply-chat-template
  --custom-rm-path relax_reward.reward_func --reward-key score      (with adapters/python on PYTHONPATH)
  --reward-max-concurrency 10   (Relax; the service's --concurrency bounds the reruns, not this)
  slime: the same --custom-rm-path; --group-rm passes the whole list of samples at once.
Environment: HARNESS_REWARD_URL (default http://127.0.0.1:8765), see harness_reward_client.py.

Same signature and return shape as the release's reward_mixed_codepatch.reward_func: one Sample gives one dict,
a list gives a list of dicts, each with `score` (the reward key) and the release's delta fields. It reads
`sample.metadata` (the row's metadata) and `sample.response` (the engineer's completion).
Missing evaluation: score 0.0, eval_status "missing_evaluation", and `sample.remove_sample = True` so slime/Relax
mask the sample out of the loss (it still counts in its group's advantage normalisation).
"""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Any, Dict, List, Union

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness_reward_client as client  # noqa: E402


def _release_dict(result: Dict[str, Any], metadata: Dict[str, Any]) -> Dict[str, Any]:
    batch_size = int(metadata.get("batch_size") or 1)
    baseline_pass = int(result.get("baseline_pass") if result.get("baseline_pass") is not None else metadata.get("baseline_pass") or 0)
    patched_pass = result.get("patched_pass")
    delta_pass = 0 if patched_pass is None or result.get("status") != "scored" else int(patched_pass) - baseline_pass
    return {
        "score": float(result.get("reward") or 0.0),
        "delta_score": float(result.get("reward") or 0.0),
        "delta_pass": delta_pass,
        "delta_pass_rate": delta_pass / max(1, batch_size),
        "baseline_pass": baseline_pass,
        "patched_pass": baseline_pass if patched_pass is None else int(patched_pass),
        "batch_size": batch_size,
        "valid_patch": result.get("status") in client.VALID_PATCH_STATUSES,
        "eval_status": result.get("status"),
        "detail": str(result.get("error") or "")[:1000],
        "benchmark": metadata.get("benchmark"),
        "measured_delta": result.get("delta"),
        "rescued": result.get("rescued", 0),
        "regressed": result.get("regressed", 0),
        "eval_key": result.get("eval_key"),
        "cache_hit": bool(result.get("cached")),
    }


def _score(samples: List[Any]) -> List[Dict[str, Any]]:
    metas = [client.parse_metadata(s.metadata) for s in samples]
    results = client.score_items([(m, s.response or "") for m, s in zip(metas, samples)])
    out = []
    for sample, meta, result in zip(samples, metas, results):
        if client.is_missing(result) and hasattr(sample, "remove_sample"):
            sample.remove_sample = True
        out.append(_release_dict(result, meta))
    return out


async def reward_func(args: Any, samples: Union[Any, List[Any]], **kwargs: Any) -> Union[Dict[str, Any], List[Dict[str, Any]]]:
    del args, kwargs  # the service holds the target and the reward settings
    if isinstance(samples, list):
        return await asyncio.to_thread(_score, samples)
    return (await asyncio.to_thread(_score, [samples]))[0]
